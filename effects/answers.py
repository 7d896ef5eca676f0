"""The wire format of effects' answers: its part of a character's snapshot (snapshot.py),
pushed effects, "Claridad", objects with a tag and the requests to the organisers. The
selectors (selectors/) still build the dicts; these serializers are the contract."""
from __future__ import annotations

from rest_framework import serializers

from players.answers import IdNameAnswer, KeyLabel


class EffectAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    push = serializers.UUIDField(help_text="The push it came with (one per character reached)")
    text = serializers.CharField()
    started_game_s = serializers.FloatField()
    duration_s = serializers.FloatField(allow_null=True, help_text="null: until removed")
    ends_game_s = serializers.FloatField(allow_null=True)
    remaining_s = serializers.FloatField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True, help_text="null: no end, or the "
                                        "clock is paused")


class CarriedAnswer(serializers.Serializer):
    name = serializers.CharField()
    load = serializers.IntegerField()
    code = serializers.CharField(allow_null=True, help_text="null: the sheet's starting gear")


class LoadAnswer(serializers.Serializer):
    """Carga: what the character carries against its capacity."""
    items = CarriedAnswer(many=True)
    total = serializers.IntegerField()
    capacity = serializers.IntegerField()
    overload_max = serializers.IntegerField(help_text="Beyond it the character cannot move")
    status = serializers.ChoiceField(choices=["normal", "overloaded", "immobile"])
    label = serializers.CharField()
    meaning = serializers.CharField()


class EffectsSnapshotPart(serializers.Serializer):
    """effects_section's keys (effects/snapshot.py)."""
    effects = EffectAnswer(many=True, help_text="Active: the character's own and those "
                           "pushed to everyone, oldest first")
    load = LoadAnswer(allow_null=True, help_text="null: the ruleset has no Carga")


class EffectPushedAnswer(serializers.Serializer):
    push_id = serializers.UUIDField()
    characters = serializers.ListField(child=serializers.IntegerField(), required=False,
                                       help_text="Those reached; absent when pushed to everyone")
    everyone = serializers.BooleanField(required=False, help_text="Present (true) when "
                                        "pushed to everyone")
    durations_s = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text="How long it lasts for each one reached, by character id (\"everyone\" "
                  "when pushed to everyone); null: until removed")


class EffectRemovedAnswer(serializers.Serializer):
    removed = serializers.IntegerField()


class ClarityAbilityAnswer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    explains = serializers.CharField(allow_null=True, help_text="null: an ability the "
                                     "ruleset does not know")


class ClarityEffectAnswer(EffectAnswer):
    catalogue = serializers.CharField(allow_null=True, help_text="Its catalogue entry's key")
    label = serializers.CharField(allow_null=True)
    explains = serializers.CharField(allow_null=True)


class ClarityLoadAnswer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["overloaded", "immobile"])
    label = serializers.CharField()
    meaning = serializers.CharField()
    total = serializers.IntegerField()
    capacity = serializers.IntegerField()


class ClarityAnswer(serializers.Serializer):
    character = IdNameAnswer()
    abilities = ClarityAbilityAnswer(many=True)
    effects = ClarityEffectAnswer(many=True)
    state = KeyLabel()
    load = ClarityLoadAnswer(allow_null=True, help_text="Only when it weighs on the character")


class ItemScanAnswer(serializers.Serializer):
    """What anyone holding the object may know: never its verso or its effect."""
    code = serializers.CharField()
    name = serializers.CharField()
    kind = serializers.CharField(help_text="tag, medicine, envelope, firearm or lock")
    tag_text = serializers.CharField(allow_blank=True)
    actions = serializers.ListField(child=serializers.CharField(), help_text="What the "
                                    "scanner may do: touch, ingest, open, lock or unlock")
    used = serializers.BooleanField(help_text="Used up")
    loaded = serializers.BooleanField(required=False, help_text="Firearms only")
    holder = serializers.CharField(required=False, allow_null=True,
                                   help_text="Firearms only: who holds it")
    closed = serializers.BooleanField(required=False, help_text="Locks only: where the "
                                      "padlock hangs")
    load = serializers.IntegerField(required=False, help_text="Not for locks, in rulesets "
                                    "with Carga: what it would add to one's load")


class ItemNarratorAnswer(ItemScanAnswer):
    """The organisers see everything."""
    id = serializers.IntegerField()
    secret_text = serializers.CharField(allow_blank=True, help_text="The verso")
    effect_text = serializers.CharField(allow_blank=True)
    effect_duration_s = serializers.FloatField(allow_null=True)
    effect_set_state = serializers.CharField(allow_blank=True)
    single_use = serializers.BooleanField()
    loaded = serializers.BooleanField()
    holder = IdNameAnswer(allow_null=True)
    own_load = serializers.IntegerField(allow_null=True, help_text="null: the ruleset's default")
    used_by = IdNameAnswer(allow_null=True)
    used_game_s = serializers.FloatField(allow_null=True)


class EventItemsAnswer(serializers.Serializer):
    items = ItemNarratorAnswer(many=True)


class ItemTargetAnswer(serializers.Serializer):
    name = serializers.CharField()


class ItemUsedAnswer(serializers.Serializer):
    """Three shapes: the one reached reads `revealed` and `effect`; someone who made
    another ingest it reads `done`; a lock moved says where it now hangs (`closed`)."""
    item = ItemScanAnswer()
    action = serializers.CharField(help_text="touch, ingest, open, lock or unlock")
    target = ItemTargetAnswer(required=False, help_text="Not for a lock")
    revealed = serializers.CharField(required=False, help_text="The verso, for the one "
                                     "reached only")
    effect = EffectAnswer(required=False, help_text="For the one reached only")
    done = serializers.CharField(required=False, help_text="Made another ingest it: they "
                                 "read the verso")
    closed = serializers.BooleanField(required=False, help_text="A lock only")


class ItemCarriedAnswer(serializers.Serializer):
    item = ItemScanAnswer()
    action = serializers.ChoiceField(choices=["carry", "drop"])
    carried = serializers.BooleanField()
    load = LoadAnswer(allow_null=True, help_text="The character's load; null without Carga")


class OrganiserRequestAnswer(serializers.Serializer):
    id = serializers.IntegerField()
    character = IdNameAnswer()
    text = serializers.CharField()
    status = serializers.CharField(help_text="open or answered")
    created_game_s = serializers.FloatField()
    created_at = serializers.DateTimeField()
    answer = serializers.CharField(allow_null=True)
    answered_by = serializers.CharField(allow_null=True, help_text="The narrator's username")
    answered_game_s = serializers.FloatField(allow_null=True)
    effect = serializers.IntegerField(allow_null=True, help_text="The effect the answer "
                                      "reached the player as")


class OrganiserRequestsAnswer(serializers.Serializer):
    requests = OrganiserRequestAnswer(many=True)
