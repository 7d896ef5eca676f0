"""A narrator's state change can be undone for 10 s by the narrator who made it: a
correction line in the journal restores the state before it (the journal is never
edited); later, or by someone else, it is refused in the narrator's language."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from health.models import HealthState
from players.models import JournalEntry, Membership
from tests.fixtures import act, client_for

pytestmark = pytest.mark.django_db


def kill(narrator_api, character) -> JournalEntry:
    assert act(narrator_api, character, "set_state", state="dead").status_code == 200
    return JournalEntry.objects.filter(character=character, kind="action").latest("pk")


def status(character) -> str:
    return HealthState.objects.get(pk=character.pk).status


def test_undo_within_10_s_restores_the_state_and_journals_a_correction(clock, player,
                                                                       narrator_api):
    entry = kill(narrator_api, player)
    assert status(player) == "dead"
    clock.advance(9)

    response = narrator_api.post(f"/api/journal/{entry.pk}/undo/")

    assert response.status_code == 200, response.content
    assert status(player) == "healthy"
    assert response.json()["snapshot"]["state"]["key"] == "healthy"
    correction = JournalEntry.objects.get(kind="correction")
    assert correction.what == "undo" and correction.detail["undoes"] == entry.pk
    assert correction.before["status"] == "dead" and correction.after["status"] == "healthy"
    entry.refresh_from_db()
    assert entry.after["status"] == "dead"   # the line undone is kept as it was


def test_undoing_twice_is_undoing_once(clock, player, narrator_api):
    entry = kill(narrator_api, player)
    first = narrator_api.post(f"/api/journal/{entry.pk}/undo/")
    clock.advance(30)   # a retry after the window still answers the same correction
    second = narrator_api.post(f"/api/journal/{entry.pk}/undo/")
    assert first.status_code == second.status_code == 200
    assert first.json()["correction"] == second.json()["correction"]
    assert JournalEntry.objects.filter(kind="correction").count() == 1
    assert status(player) == "healthy"


@pytest.mark.parametrize("lang, words", [
    ("en", "Too late to undo: a change can be undone for 10 s"),
    ("fr", "Trop tard pour annuler : un changement peut être annulé pendant 10 s"),
    ("es", "Demasiado tarde para deshacer: un cambio se puede deshacer durante 10 s"),
])
def test_after_10_s_the_undo_is_refused(clock, player, narrator_user, lang, words):
    entry = kill(client_for(narrator_user), player)
    clock.advance(11)
    response = client_for(narrator_user, lang).post(f"/api/journal/{entry.pk}/undo/")
    assert response.status_code == 409
    assert response.json()["error"] == "undo_too_late"
    assert response.json()["detail"].startswith(words)
    assert status(player) == "dead"
    assert not JournalEntry.objects.filter(kind="correction").exists()


def test_another_narrator_cannot_undo_it(clock, event, player, narrator_api):
    entry = kill(narrator_api, player)
    other = get_user_model().objects.create_user(username="other-narrator")
    Membership.objects.create(event=event, user=other, role=Membership.NARRATOR)
    response = client_for(other, "fr").post(f"/api/journal/{entry.pk}/undo/")
    assert response.status_code == 403
    assert response.json()["detail"] == "Seul le narrateur qui a fait ce changement peut l'annuler."
    assert status(player) == "dead"


def test_a_player_cannot_undo(clock, player, player_api, narrator_api):
    entry = kill(narrator_api, player)
    assert player_api.post(f"/api/journal/{entry.pk}/undo/").status_code in (403, 404)
    assert status(player) == "dead"


@pytest.mark.parametrize("lang, words", [
    ("en", "This character changed again since: correct the state instead of undoing."),
    ("fr", "Ce personnage a changé depuis : corrigez l'état au lieu d'annuler."),
    ("es", "Este personaje cambió desde entonces: corrige el estado en lugar de deshacer."),
])
def test_an_undo_is_refused_once_something_else_happened_to_the_character(
        clock, player, player_api, narrator_user, lang, words):
    """undo_superseded: restoring the state from before the narrator's tap would erase
    what happened to the character since (here the wound the player declared)."""
    assert act(client_for(narrator_user), player, "set_state", state="tired").status_code == 200
    entry = JournalEntry.objects.filter(character=player, kind="action").latest("pk")
    clock.advance(3)
    assert act(player_api, player, "hit_wounding").status_code == 200
    clock.advance(3)                                # still inside the 10 s

    response = client_for(narrator_user, lang).post(f"/api/journal/{entry.pk}/undo/")

    assert response.status_code == 409, response.content
    assert response.json() == {"error": "undo_superseded", "detail": words}
    assert status(player) == "wounded"              # the wound declared since is kept
    assert not JournalEntry.objects.filter(kind="correction").exists()
