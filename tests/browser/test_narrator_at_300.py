"""The narrators' live view at a real event's size, on a phone and on a tablet: 300
characters found by name, code or team within three screens, the "next to fall" strip in
deadline order, counts per state that filter, an effect pushed from the sheet to rows ticked
at the bottom of the list, a page that holds only the rows on screen and never overflows its
width; and an event of 3,000 that stays usable."""
from __future__ import annotations

import secrets

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from browser_helpers import screenshot
from crowd import crowd_event
from effects.models import Effect
from health.models import HealthState
from players.models import Character, Membership, new_character_code

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [pytest.param(False, id="phone"), pytest.param(True, id="tablet")]
MOST_ROWS_IN_THE_PAGE = 40    # what is on screen and a margin: far fewer than the characters


def open_narrator(phone, crowd, *, tablet: bool, count: int = 300):
    page = phone("fr", tablet=tablet)
    page.goto(crowd.narrator_link)
    page.locator("form button").click()  # the login page's button
    expect(page.locator(".selection-bar .count")).to_have_text(f"Affichés : {count} · cochés : 0", timeout=30000)
    return page


def row(page, name: str):
    return page.locator(".char-row", has=page.get_by_text(name, exact=True))


def rows_in_page(page) -> int:
    return page.locator(".char-row").count()


def scroll_until_shown(page, name: str) -> float:
    """Scrolls the list a screen at a time, as a thumb would, until the row is in view;
    answers how far the list was scrolled, in heights of the phone's screen."""
    box = page.locator(".list-box")
    screen = page.evaluate("window.innerHeight")
    while not row(page, name).count() or not _in_view(page, name):
        moved = box.evaluate("(el) => { const before = el.scrollTop; el.scrollTop += el.clientHeight; return el.scrollTop - before; }")
        page.wait_for_timeout(50)    # the next frame draws the rows that came into view
        if moved == 0:
            raise AssertionError(f"{name} is not in the list")
    return box.evaluate("(el) => el.scrollTop") / screen


def _in_view(page, name: str) -> bool:
    return row(page, name).evaluate("""(el) => { const box = el.closest('.list-box').getBoundingClientRect();
        const r = el.getBoundingClientRect(); return r.top >= box.top - 1 && r.bottom <= box.bottom + 1; }""")


def search(page, text: str, shown: int) -> None:
    page.get_by_label("Chercher un personnage").fill(text)
    expect(page.locator(".selection-bar .count")).to_have_text(f"Affichés : {shown} · cochés : 0")


NO_OVERFLOW = """() => {
  const width = window.innerWidth;
  const wrong = [];
  if (document.documentElement.scrollWidth > width) wrong.push(`page ${document.documentElement.scrollWidth}px wide`);
  for (const row of document.querySelectorAll('.char-row')) {
    const name = row.querySelector('strong').textContent;
    if (row.getBoundingClientRect().right > width + 0.5) wrong.push(`${name}: row beyond the screen`);
    for (const cell of row.querySelectorAll('.when .countdown, .when .sub')) {
      const r = cell.getBoundingClientRect();
      if (r.right > width + 0.5 || r.left < 0) wrong.push(`${name}: countdown beyond the screen`);
      if (cell.classList.contains('countdown') && cell.scrollWidth > cell.clientWidth) wrong.push(`${name}: countdown cut off`);
    }
  }
  return wrong;
}"""


@pytest.mark.parametrize("tablet", SIZES)
def test_the_narrator_finds_anyone_of_300_and_sees_who_falls_next(server_url, phone, tablet):
    crowd = crowd_event(server_url, characters=300)
    page = open_narrator(phone, crowd, tablet=tablet)

    # Only the rows on screen (and a margin) are in the page, even at the bottom of the list.
    assert rows_in_page(page) <= MOST_ROWS_IN_THE_PAGE
    assert page.evaluate(NO_OVERFLOW) == []
    if tablet:   # the phone's picture, with long real names: test_narrator_long_names_on_phone.py
        screenshot(page, "narrator-300-tablet")
    page.locator(".list-box").evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    expect(row(page, "Joueur 300")).to_be_visible()   # the last by deadline, then by name
    assert rows_in_page(page) <= MOST_ROWS_IN_THE_PAGE
    assert page.evaluate(NO_OVERFLOW) == []

    # "Next to fall": the soonest deadlines that lead to a worse state, soonest first.
    falling = sorted(HealthState.objects.filter(character__event=crowd.event, status__in=["wounded", "coma"]),
                     key=lambda health: health.timers["deadline"])
    soonest = [Character.objects.get(pk=health.pk).name for health in falling[:5]]
    expect(page.locator(".fall .fall-name")).to_have_text(soonest)
    expect(page.locator(".fall").first).to_contain_text("Coma dans")
    page.locator(".fall").first.click()    # brings that character's row into view
    expect(row(page, soonest[0])).to_be_in_viewport()
    expect(page.locator(".char-row.flash")).to_contain_text(soonest[0])

    # By name, by code (typed in lower case), by team: found within three screens.
    search(page, "Joueur 157", 1)
    assert scroll_until_shown(page, "Joueur 157") <= 3
    someone = crowd.characters[221]
    search(page, someone.code.lower(), 1)
    expect(row(page, someone.name)).to_contain_text(someone.code)
    assert scroll_until_shown(page, someone.name) <= 3
    search(page, "loups", 25)                   # 300 in 12 teams
    assert scroll_until_shown(page, "Joueur 289") <= 3   # the team's last row
    assert page.evaluate(NO_OVERFLOW) == []
    search(page, "", 300)

    # A state's chip filters the list to that state, with its count.
    wounded = HealthState.objects.filter(character__event=crowd.event, status="wounded").count()
    assert wounded == 43
    chip = page.locator(".chip", has_text="Blessé")
    expect(chip.locator(".n")).to_have_text(str(wounded))
    chip.click()
    expect(chip).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".selection-bar .count")).to_have_text(f"Affichés : {wounded} · cochés : 0")
    for state in page.locator(".char-row .row-state").all_text_contents():
        assert state == "Blessé"
    assert scroll_until_shown(page, "Joueur 295") <= 3    # the last of the 43 wounded
    page.get_by_role("checkbox", name="Cocher les affichés").check()   # every wounded one, ready for the sheet
    expect(page.locator(".selection-bar .count")).to_have_text(f"Affichés : {wounded} · cochés : {wounded}")
    expect(page.get_by_role("button", name=f"Envoyer un effet (cochés : {wounded})")).to_be_visible()
    page.get_by_role("button", name="Tout décocher").click()
    page.locator(".chip", has_text="Tous").click()
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0")
    assert page.errors == []


@pytest.mark.parametrize("tablet", SIZES)
def test_the_sheet_pushes_an_effect_to_rows_ticked_at_the_bottom_of_the_list(server_url, phone, tablet):
    crowd = crowd_event(server_url, characters=300)
    last, before_last = crowd.characters[299], crowd.characters[298]
    player = phone("fr")
    player.goto(crowd.link_for(last, server_url))
    player.locator("form button").click()  # the login page's button
    expect(player.locator("#state-label")).to_have_text("En pleine forme")
    page = open_narrator(phone, crowd, tablet=tablet)

    page.locator(".list-box").evaluate("(el) => { el.scrollTop = el.scrollHeight; }")
    row(page, last.name).click()               # a tap anywhere on the row ticks it
    row(page, before_last.name).get_by_role("checkbox").check()
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 2")
    fab = page.get_by_role("button", name="Envoyer un effet (cochés : 2)")
    expect(fab).to_be_in_viewport()
    fab.click()
    sheet = page.get_by_role("dialog", name="Envoyer un effet")
    expect(sheet).to_be_visible()
    box, screen = sheet.bounding_box(), page.viewport_size
    if tablet:   # a panel on the right, the list still beside it
        assert box["x"] > screen["width"] / 2 and box["x"] + box["width"] >= screen["width"] - 1
        expect(row(page, last.name)).to_be_in_viewport()
    else:        # a sheet from the bottom, the whole width
        assert box["width"] >= screen["width"] - 1 and abs(box["y"] + box["height"] - screen["height"]) <= 1
    expect(sheet.locator(".sheet-target")).to_have_text(f"À {last.name}, {before_last.name}.")
    sheet.get_by_placeholder("Effet : …").fill("Effet : un frisson")
    sheet.get_by_role("button", name="Envoyer", exact=True).click()
    expect(sheet.get_by_role("status")).to_have_text("Envoyé. Personnages atteints : 2.")

    reached = Effect.objects.filter(event=crowd.event, text="Effet : un frisson")
    assert sorted(reached.values_list("character__name", flat=True)) == sorted([last.name, before_last.name])
    expect(player.locator(".effects")).to_contain_text("Effet : un frisson")
    expect(row(page, last.name)).to_contain_text("Effet : un frisson")

    # Unticked from the sheet itself (on a phone it covers the list's own button): nothing
    # ticked, the sheet says the effect would go to everyone.
    sheet.get_by_role("button", name="Les décocher tous").click()
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 300 · cochés : 0")
    expect(sheet.locator(".sheet-target")).to_have_text(
        "Personne n'est coché : cet effet ira à tout le monde (personnages : 300).")
    sheet.get_by_role("button", name="Fermer").click()
    expect(sheet).to_be_hidden()
    # The button is there wherever the narrator is on the screen: at the bottom of the page too.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    expect(page.get_by_role("button", name="Envoyer un effet")).to_be_in_viewport()
    assert page.errors == [] and player.errors == []


def add_characters_in_bulk(crowd, count: int) -> None:
    """`count` more characters in the rows character_create makes (a player account, a
    membership, the initial health), written in bulk: 3,000 calls of the service take
    about half a minute on the test machine, and setting up is not what is tested here."""
    from players.models import Team
    event = crowd.event
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"e{event.pk}-{secrets.token_hex(6)}", password="!") for _ in range(count))
    codes = set(Character.objects.filter(event=event).values_list("code", flat=True))
    teams = list(Team.objects.filter(event=event).order_by("pk"))
    fresh = []
    for i, user in enumerate(users, start=len(codes) + 1):
        code = new_character_code()
        while code in codes:
            code = new_character_code()
        codes.add(code)
        fresh.append(Character(event=event, name=f"Joueur {i:04d}", team=teams[i % len(teams)], user=user,
                               code=code, sheet={"combat_base": 2}))
    made = Character.objects.bulk_create(fresh)
    Membership.objects.bulk_create(Membership(event=event, user=u, role=Membership.PLAYER) for u in users)
    initial = event.rules().initial_state()
    healths = []
    for character in made:
        health = HealthState(character=character, event=event)
        health.store(initial)
        healths.append(health)
    HealthState.objects.bulk_create(healths)


def test_an_event_of_3000_stays_usable(server_url, phone):
    crowd = crowd_event(server_url, characters=300)
    add_characters_in_bulk(crowd, 2700)
    page = open_narrator(phone, crowd, tablet=False, count=3000)
    assert rows_in_page(page) <= MOST_ROWS_IN_THE_PAGE
    page.locator(".list-box").evaluate("(el) => { el.scrollTop = el.scrollHeight / 2; }")
    expect(page.locator(".char-row").first).to_be_visible()
    assert rows_in_page(page) <= MOST_ROWS_IN_THE_PAGE

    # A search finds the last of 3,000. Its number has a 0, which no card code has: a
    # search also reads the codes, and "2999" was once inside one. (How fast is not
    # asserted: speed belongs to the benchmarks, and a busy machine is slower.)
    page.locator(".list-search").fill("Joueur 3000")
    expect(page.locator(".selection-bar .count")).to_have_text("Affichés : 1 · cochés : 0")
    expect(row(page, "Joueur 3000")).to_be_visible()
    assert page.errors == []
