"""The narrators' list at 300 characters with real, long names, as a tired narrator reads it
on a phone: every name whole (on two lines if it must), every state whole; arming the pause
leaves the event's title readable; the outcome of a push shows where the narrator looks; the
floating "push an effect" button never sits on a countdown; a portrait tablet gets the list
and the panels side by side; and rows ticked then hidden by a search stay counted and can be
unticked."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from browser_helpers import off_the_browser_thread, screenshot
from crowd import crowd_event
from players.models import Character, Event
from test_narrator_at_300 import open_narrator, row

pytestmark = pytest.mark.django_db(transaction=True)

FIRST = ["Amélie", "Bérénice", "Maximilien", "Gwendoline", "Anne-Sophie", "Jean-Baptiste",
         "Marguerite", "Barthélemy", "Clémentine", "Hippolyte", "Éléonore", "Théophile"]
FAMILY = ["Fontaine-Beauregard", "Montmorency-Laval", "Vasseur-Delacroix", "Castelnau-Brissac", "Rochechouart-Mortemart"]
PLACE = ["de la Tour", "du Plessis", "d'Espinay", "de Valombre", "des Aulnes"]
TITLE = "Le Grand Bal des Ombres de Valombre"


def long_names(crowd) -> list[str]:
    """Gives the crowd's 300 characters names as long as real ones ("Amélie
    Fontaine-Beauregard de la Tour"), twelve of each first name."""
    def rename():
        names = []
        for i, character in enumerate(crowd.characters):
            name = f"{FIRST[i % 12]} {FAMILY[(i // 12) % 5]} {PLACE[(i // 60) % 5]}"
            Character.objects.filter(pk=character.pk).update(name=name)
            character.name = name
            names.append(name)
        Event.objects.filter(pk=crowd.event.pk).update(name=TITLE)
        return names
    return off_the_browser_thread(rename)


# Every name and state in the rows on screen: what of it is cut, sideways or below the row.
CUT = """() => {
  const cut = [];
  const box = document.querySelector('.list-box').getBoundingClientRect();
  for (const row of document.querySelectorAll('.char-row')) {
    const r = row.getBoundingClientRect();
    if (r.bottom < box.top || r.top > box.bottom) continue;
    for (const el of row.querySelectorAll('.who strong, .row-state')) {
      const style = getComputedStyle(el);
      const e = el.getBoundingClientRect();
      const what = `${el.textContent} (${Math.round(e.width)}px)`;
      if (el.scrollWidth > el.clientWidth + 0.5) cut.push(`${what}: cut sideways`);
      if (style.textOverflow === 'ellipsis' && style.whiteSpace === 'nowrap') cut.push(`${what}: ends in an ellipsis`);
      if (e.bottom > r.bottom + 0.5 || e.right > r.right + 0.5) cut.push(`${what}: beyond its row`);
    }
  }
  return cut;
}"""

# The title's lines, and the words of it split over two lines (one syllable per line).
TITLE_LINES = """() => {
  const h1 = document.querySelector('.narrator-head h1');
  const text = h1.firstChild;
  const split = [];
  let at = 0;
  for (const word of text.textContent.split(' ')) {
    const range = document.createRange();
    range.setStart(text, at); range.setEnd(text, at + word.length);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (tops.size > 1) split.push(word);
    at += word.length + 1;
  }
  const lines = Math.round(h1.getBoundingClientRect().height / parseFloat(getComputedStyle(h1).lineHeight));
  return { lines, split };
}"""

# The floating button over a countdown of the rows the list shows.
FAB_OVER = """() => {
  const fab = document.querySelector('.sheet-fab').getBoundingClientRect();
  const box = document.querySelector('.list-box').getBoundingClientRect();
  const over = [];
  for (const when of document.querySelectorAll('.char-row .when .countdown')) {
    const r = when.getBoundingClientRect();
    if (r.bottom <= box.top || r.top >= box.bottom) continue;   // scrolled out of the list
    if (r.left < fab.right && r.right > fab.left && r.top < fab.bottom && r.bottom > fab.top)
      over.push(when.closest('.char-row').querySelector('strong').textContent);
  }
  return over;
}"""

# Whether an element is where the eye is: on the screen and not hidden under something else.
SEEN = """(el) => { const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight || r.height === 0) return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return Boolean(hit) && (el === hit || el.contains(hit)); }"""


def scroll_list(page, where: str) -> None:
    page.locator(".list-box").evaluate(f"(el) => {{ el.scrollTop = {where}; }}")
    page.wait_for_timeout(100)   # the next frame draws the rows that came into view


def test_long_names_and_states_are_whole_on_a_phone(server_url, phone):
    crowd = crowd_event(server_url, characters=300)
    names = long_names(crowd)
    page = open_narrator(phone, crowd, tablet=False)
    expect(row(page, names[0])).to_be_visible()
    for where in ("0", "el.scrollHeight / 2", "el.scrollHeight"):
        scroll_list(page, where)
        assert page.evaluate(CUT) == []
    expect(page.locator(".char-row .row-state", has_text="En pleine forme").first).to_be_visible()
    # The "next to fall" strip names them whole too.
    assert page.locator(".fall .fall-name").evaluate_all("""(names) => names.filter((el) =>
        el.scrollWidth > el.clientWidth + 0.5 || getComputedStyle(el).textOverflow === 'ellipsis').map((el) => el.textContent)""") == []
    scroll_list(page, "0")
    screenshot(page, "narrator-300-phone")

    # Arming the pause: the title keeps whole words, on two lines at most.
    page.locator(".narrator-head button").click()
    expect(page.locator(".narrator-head button")).to_have_text("Touchez encore : tout arrêter")
    title = page.evaluate(TITLE_LINES)
    assert title["split"] == [] and title["lines"] <= 2, title

    # The floating button never sits on a countdown: with the list filling the screen and
    # scrolled to its end, the last rows' countdowns stand clear of it.
    page.locator(".chip", has_text="Blessé").click()
    page.locator(".live-list").evaluate("(el) => el.scrollIntoView({ block: 'end' })")
    scroll_list(page, "el.scrollHeight")
    last = page.locator(".char-row").last
    assert page.evaluate(FAB_OVER) == []
    assert last.locator(".when .countdown").evaluate(SEEN)
    page.locator(".chip", has_text="Tous").click()

    # A push from the sheet, one character ticked (its panel makes the sheet long): the
    # outcome is on the screen, not below the sheet's fold.
    scroll_list(page, "0")
    first = page.locator(".char-row").first
    first.click()
    page.get_by_role("button", name="Envoyer un effet (cochés : 1)").click()
    sheet = page.get_by_role("dialog", name="Envoyer un effet")
    sheet.get_by_placeholder("Effet : …").fill("Effet : un frisson")
    sheet.get_by_role("button", name="Envoyer", exact=True).click()
    status = sheet.locator(".sheet-status")
    expect(status).to_have_text("Envoyé. Personnages atteints : 1.")
    assert status.evaluate(SEEN)
    sheet.get_by_role("button", name="Fermer").click()
    assert page.errors == []


def test_rows_ticked_then_hidden_by_a_search_stay_counted_and_can_be_unticked(server_url, phone):
    crowd = crowd_event(server_url, characters=300)
    names = long_names(crowd)
    page = open_narrator(phone, crowd, tablet=False)
    page.get_by_label("Chercher un personnage").fill("Amélie")
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 25 · cochés : 0")
    row(page, names[0]).click()      # the two wounded Amélies first, at the top of the list
    row(page, names[84]).click()
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 25 · cochés : 2")
    hidden = page.locator(".selection-bar .hidden-ticked")
    expect(hidden).to_be_hidden()   # both ticked rows are shown

    page.get_by_label("Chercher un personnage").fill(names[84])
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 1 · cochés : 2")
    expect(hidden).to_have_text("Cochés mais cachés par la recherche ou le filtre : 1")
    expect(hidden).to_be_in_viewport()
    page.get_by_role("button", name="Tout décocher").click()
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 1 · cochés : 0")
    expect(hidden).to_be_hidden()
    assert page.errors == []


def test_a_portrait_tablet_gets_the_list_and_the_panels_side_by_side(server_url, phone):
    crowd = crowd_event(server_url, characters=300)
    names = long_names(crowd)
    page = phone("fr", tablet=True)
    page.set_viewport_size({"width": 820, "height": 1180})
    page.goto(crowd.narrator_link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0", timeout=30000)
    listed = page.locator(".live-list").bounding_box()
    side = page.locator(".narrator-side").bounding_box()
    assert side["x"] >= listed["x"] + listed["width"], (listed, side)
    assert side["y"] < listed["y"] + listed["height"]   # beside the list, not under it
    assert page.evaluate(CUT) == []
    row(page, names[0]).click()
    page.get_by_role("button", name="Envoyer un effet (cochés : 1)").click()
    sheet = page.get_by_role("dialog", name="Envoyer un effet").bounding_box()
    assert sheet["x"] >= listed["x"] + listed["width"]   # a panel on the right, the list whole beside it
    expect(row(page, names[0])).to_be_in_viewport()

    # Turned to landscape (1024 px), the list is wide enough for one line of four columns:
    # the names are still whole.
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_timeout(200)   # the list draws again at its new width
    assert page.evaluate("getComputedStyle(document.querySelector('.char-row')).gridTemplateAreas") == '"tick who what when"'
    assert page.evaluate(CUT) == []
    assert page.errors == []
