"""The effects let go of a person's names (effects/services/privacy.py): their requests, the
effects that reached them or their whole event, and the objects of their events keep what
they say without the names; the phones are told to fetch their snapshot again."""
from __future__ import annotations

import uuid

import pytest
from django.utils import timezone

from effects.models import Effect, Item, OrganiserRequest
from effects.services.privacy import effects_person_erase
from health.models import HealthState
from players.privacy import Person, Scrub
from players.services import character_create, event_create

pytestmark = pytest.mark.django_db
ALICE = Scrub({"Alice": "Personne 7F3K"})


def effect(event, character, text) -> Effect:
    return Effect.objects.create(event=event, character=character, text=text, push_id=uuid.uuid4(),
                                 started_game_s=0)


def request_of(character, text, answer="") -> OrganiserRequest:
    return OrganiserRequest.objects.create(event=character.event, character=character, text=text,
                                           answer=answer, created_game_s=0,
                                           created_at=timezone.now())


def alice_person(player) -> Person:
    return Person(user=player.user, characters=(player,), event_ids=(player.event_id,))


def test_their_requests_and_the_answers_lose_the_name_and_keep_within_the_column(clock, player):
    long = request_of(player, "Alice " + "a" * 990, answer="Oui Alice, vas-y")
    effects_person_erase(person=alice_person(player), scrub=ALICE)
    long.refresh_from_db()
    assert long.text == ("Personne 7F3K " + "a" * 990)[:OrganiserRequest.TEXT_MAX]
    assert long.answer == "Oui Personne 7F3K, vas-y"


def test_their_effects_and_their_event_s_broadcasts_lose_the_name_no_one_else_s(
        clock, event, player, other_player, narrator_user):
    theirs = effect(event, player, "Alice a froid")
    to_all = effect(event, None, "Tout le monde a vu Alice tomber")
    denis = effect(event, other_player, "Denis pense à Alice")      # another's own: not theirs
    elsewhere_event = event_create(name="Autre", ruleset="gn_fr", by=narrator_user)
    elsewhere = effect(elsewhere_event, None, "Alice ailleurs")

    effects_person_erase(person=alice_person(player), scrub=ALICE)

    assert Effect.objects.get(pk=theirs.pk).text == "Personne 7F3K a froid"
    assert Effect.objects.get(pk=to_all.pk).text == "Tout le monde a vu Personne 7F3K tomber"
    assert Effect.objects.get(pk=denis.pk).text == "Denis pense à Alice"
    assert Effect.objects.get(pk=elsewhere.pk).text == "Alice ailleurs"


def test_the_objects_of_their_events_lose_the_name_in_every_text(clock, event, player,
                                                                 narrator_user):
    item = Item.objects.create(event=event, kind="tag", name="Lettre d'Alice " + "x" * 185,
                               tag_text="Pour Alice", secret_text="Alice ment",
                               effect_text="Tu penses à Alice")
    other_event = event_create(name="Autre", ruleset="gn_fr", by=narrator_user)
    elsewhere = Item.objects.create(event=other_event, kind="tag", name="Lettre d'Alice")

    effects_person_erase(person=alice_person(player), scrub=ALICE)

    item.refresh_from_db()
    assert item.name == ("Lettre d'Personne 7F3K " + "x" * 185)[:200]     # within its column
    assert (item.tag_text, item.secret_text, item.effect_text) == (
        "Pour Personne 7F3K", "Personne 7F3K ment", "Tu penses à Personne 7F3K")
    assert Item.objects.get(pk=elsewhere.pk).name == "Lettre d'Alice"


def test_the_phones_of_their_event_fetch_again_only_when_a_text_changed(clock, event, player,
                                                                        other_player):
    def versions():
        return dict(HealthState.objects.filter(character__event=event).values_list("pk", "version"))
    effect(event, None, "Nuit calme")
    before = versions()
    effects_person_erase(person=alice_person(player), scrub=ALICE)
    assert versions() == before                                        # nothing named her

    effect(event, None, "Alice a disparu")
    effects_person_erase(person=alice_person(player), scrub=ALICE)
    after = versions()
    assert all(after[pk] > before[pk] for pk in (player.pk, other_player.pk))

    Item.objects.create(event=event, kind="tag", name="Lettre", tag_text="Pour Alice")
    effects_person_erase(person=alice_person(player), scrub=ALICE)     # an object's text only
    assert all(versions()[pk] > after[pk] for pk in (player.pk, other_player.pk))


def test_with_nothing_to_scrub_nothing_changes(clock, event, player):
    theirs = effect(event, player, "Alice a froid")
    effects_person_erase(person=alice_person(player), scrub=Scrub())
    assert Effect.objects.get(pk=theirs.pk).text == "Alice a froid"


def test_a_character_made_for_another_game_keeps_its_requests(clock, event, player,
                                                              narrator_user):
    other_game = event_create(name="Autre", ruleset="gn_fr", by=narrator_user)
    someone = character_create(event=other_game, name="Alice", by=narrator_user)
    kept = request_of(someone, "Alice demande un soin")
    effects_person_erase(person=alice_person(player), scrub=ALICE)
    assert OrganiserRequest.objects.get(pk=kept.pk).text == "Alice demande un soin"
