"""I need help (real), on phones and a tablet, one player among the crowd of an event: the
call leaves from the top bar in two taps, both organisers' safety boards show it at once
with its position, one takes it, the other sees who did, the caller's phone reads
"received, X is coming", and the game clock never paused. The same call made with no
network says plainly that it has not been sent, and leaves with its tap time when the
network returns."""
from __future__ import annotations

import time

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from browser_helpers import eventually, off_the_browser_thread, screenshot
from crowd import crowd_event
from health.models import HealthState
from players.models import Event, JournalEntry
from players.services import login_token_issue, membership_grant
from safety.models import HelpCall

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "fr": {"help": "J'ai besoin d'aide (réel)", "injured": "Blessé(e)", "lost": "Perdu(e)",
           "send": "Envoyer l'appel", "take": "Je m'en occupe", "on_it": "orga s'en occupe",
           "coming": "Reçu. orga arrive.", "unsent": "PAS ENCORE ENVOYÉ", "close": "Fermer"},
    "es": {"help": "Necesito ayuda (real)", "injured": "Herido/a", "lost": "Perdido/a",
           "send": "Enviar la llamada", "take": "Me encargo", "on_it": "orga se encarga",
           "coming": "Recibida. orga va hacia ti.", "unsent": "AÚN NO ENVIADA", "close": "Cerrar"},
    "en": {"help": "I need help (real)", "injured": "Injured", "lost": "Lost",
           "send": "Send the call", "take": "I'm on it", "on_it": "orga is on it",
           "coming": "Received. orga is coming.", "unsent": "NOT SENT YET", "close": "Close"},
}


def log_in(page, link):
    page.goto(link)
    page.locator("form button").click()
    return page


def second_organiser(event):
    user = get_user_model().objects.create_user(username="camille")
    membership_grant(event=event, user=user, role="narrator")
    return login_token_issue(event=event, user=user)


def listening(group: str, sockets: int, timeout: float = 15) -> None:
    client = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    deadline = time.monotonic() + timeout
    while client.zcard(f"{prefix}:group:{group}") < sockets:
        assert time.monotonic() < deadline, f"{sockets} websockets never joined {group}"
        time.sleep(0.05)


def call_for_help(page, words, kind):
    page.locator("#topbar .help-button").click()
    page.get_by_role("button", name=words[kind], exact=True).click()
    page.get_by_role("button", name=words["send"]).click()


@pytest.mark.parametrize("lang, tablet", [("fr", False), ("es", True), ("en", False)],
                         ids=["fr-phone", "es-tablet", "en-phone"])
def test_a_call_for_help_reaches_two_organisers_and_the_caller_sees_who_is_coming(
        server_url, phone, lang, tablet):
    words = WORDS[lang]
    crowd = crowd_event(server_url, characters=40)
    event = crowd.event
    other_link = f"{server_url}/login/{off_the_browser_thread(second_organiser, event)}"
    boards = []
    for link in (crowd.narrator_link, other_link):
        board = log_in(phone(lang, tablet=tablet), link)
        board.goto(f"{server_url}/#/safety/{event.pk}")
        expect(board.locator(".safety-summary")).to_be_visible()
        boards.append(board)
    listening(f"event-{event.pk}-narrators", 2)

    caller = log_in(phone(lang, tablet=tablet), crowd.link_for(crowd.characters[20], server_url))
    caller.context.grant_permissions(["geolocation"], origin=server_url)
    caller.context.set_geolocation({"latitude": 45.7612, "longitude": 4.8321, "accuracy": 12})
    expect(caller.locator("#state-label")).to_be_visible()
    caller_name = crowd.characters[20].name
    call_for_help(caller, words, "injured")

    started = time.monotonic()
    for board in boards:
        card = board.locator(".help-call.help-open")
        expect(card).to_contain_text(caller_name, timeout=3000)
        expect(card).to_contain_text(words["injured"])
        expect(card.locator(".help-where")).to_contain_text("45.76120, 4.83210 ± 12 m")
    assert time.monotonic() - started < 2.5      # both screens, live (no reload, no poll)
    screenshot(boards[0], f"safety-board-call-{lang}{'-tablet' if tablet else ''}")

    boards[0].get_by_role("button", name=words["take"]).click()
    expect(boards[1].locator(".help-taken-by")).to_contain_text(words["on_it"], timeout=3000)
    expect(caller.locator(".help-banner")).to_contain_text(words["coming"], timeout=3000)
    screenshot(caller, f"help-received-{lang}{'-tablet' if tablet else ''}")

    call = HelpCall.objects.get()
    assert (call.status, call.taken_by_label, call.character_id) == ("taken", "orga", crowd.characters[20].pk)
    assert Event.objects.get(pk=event.pk).running          # the game clock never paused
    # The first aid is real: the organiser takes the character out of the game; their
    # timers stop, the board lists them apart.
    boards[0].locator(".help-hold").click()
    expect(boards[0].locator(".safety-row .real-injury")).to_contain_text(words["injured"])
    screenshot(boards[0], f"safety-board-out-for-real-{lang}{'-tablet' if tablet else ''}")
    assert HealthState.objects.get(pk=crowd.characters[20].pk).held_since_s is not None
    for page in (caller, *boards):
        assert page.errors == []


def test_a_call_made_offline_says_so_and_leaves_with_its_tap_time(server_url, phone):
    words = WORDS["fr"]
    crowd = crowd_event(server_url, characters=20)
    caller = log_in(phone("fr"), crowd.link_for(crowd.characters[3], server_url))
    expect(caller.locator("#state-label")).to_be_visible()
    caller.context.set_offline(True)
    # A declaration of the game waits in the outbox before it: the call still leaves first.
    caller.get_by_role("button", name="Touché par une arme blessante").click()
    caller.locator("button.armed").click()
    call_for_help(caller, words, "lost")
    expect(caller.locator(".help-sheet .help-unsent")).to_contain_text(words["unsent"])
    expect(caller.locator(".help-banner .help-unsent")).to_contain_text(words["unsent"])
    assert not HelpCall.objects.exists()
    caller.get_by_role("button", name=words["close"], exact=True).click()
    screenshot(caller, "help-not-sent-fr")

    caller.wait_for_timeout(3000)               # three seconds in the dead zone
    caller.context.set_offline(False)
    caller.evaluate("window.dispatchEvent(new Event('online'))")
    eventually(caller, "!document.querySelector('.help-banner .help-unsent')")
    eventually(caller, "document.querySelector('#state-label').textContent === 'Blessé' && !document.querySelector('.pending-mark')")
    call = HelpCall.objects.get()
    assert call.kind == "lost"
    sent = list(JournalEntry.objects.filter(character=crowd.characters[3]).exclude(kind="privacy")
                .order_by("id").values_list("kind", flat=True))
    assert sent[-2:] == ["safety", "action"], sent
    assert (call.received_at - call.tapped_at).total_seconds() >= 2.5
    expect(caller.locator(".help-banner")).to_contain_text("Reçu par les organisateurs")
    assert caller.errors == []
