"""Two small services of the objects that other apps call (effects/services): a tag
touched gives its effect to whoever touched it, and who holds an object is kept."""
from __future__ import annotations

import pytest

from effects.models import Effect, Item
from effects.services.carrying import item_hold
from effects.services.items import item_touch
from players.models import Character, JournalEntry
from rulesets import RuleRefused

pytestmark = pytest.mark.django_db


def test_a_tag_touched_gives_its_effect_to_whoever_touched_it(clock, event, player,
                                                             other_player):
    tag = Item.objects.create(event=event, kind="tag", name="Rune", tag_text="Une rune",
                              effect_text="Tu entends des voix", effect_duration_s=600)

    effect = item_touch(item=tag, character=player, by=player.user)

    assert (effect.character, effect.text, effect.duration_s) == (player, "Tu entends des voix", 600)
    assert not Effect.objects.filter(character=other_player).exists()
    line = JournalEntry.objects.get(event=event, kind="item")
    assert (line.actor, line.character) == (player.user, player)


def test_a_player_touches_nothing_while_the_game_is_paused(clock, event, player, narrator_user):
    from schedule.services.clock import clock_pause

    tag = Item.objects.create(event=event, kind="tag", name="Rune", effect_text="Des voix")
    clock_pause(event=event, by=narrator_user)
    player = Character.objects.get(pk=player.pk)           # as a request reads it, paused
    with pytest.raises(RuleRefused) as refused:
        item_touch(item=tag, character=player, by=player.user)
    assert refused.value.code == "game_paused"
    assert not Effect.objects.filter(character=player).exists()


def test_who_holds_an_object_is_kept_and_can_be_no_one(clock, event, player):
    gun = Item.objects.create(event=event, kind=Item.FIREARM, name="Fusil")
    item_hold(item=gun, holder=player)
    assert Item.objects.get(pk=gun.pk).holder == player
    item_hold(item=gun, holder=None)
    assert Item.objects.get(pk=gun.pk).holder is None
