from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from common.idempotency import idempotent
from players.selectors import character_visible, event_for_narrator
from rulesets import RuleRefused

from .models import Effect
from .answers import ClarityAnswer, EffectPushedAnswer, EffectRemovedAnswer
from .selectors.effects import character_clarity
from .services import effects as services


class EffectPushApi(APIView):
    class EffectInput(serializers.Serializer):
        text = serializers.CharField(max_length=2000, required=False, allow_blank=True,
                                     default="", help_text="Required unless `catalogue`: "
                                     "then it defaults to the entry's name and explanation.")
        catalogue = serializers.CharField(max_length=60, required=False, allow_blank=True,
                                          default="", help_text="A named effect of the "
                                          "ruleset's catalogue (GET /api/rulesets/{key}/).")
        duration_s = serializers.FloatField(required=False, allow_null=True, min_value=1,
                                            max_value=7 * 24 * 3600)
        until_removed = serializers.BooleanField(default=False, help_text=(
            "Without duration_s: lasts until removed even where the ruleset's standard "
            "duration is one Conflict (septenario)."))
        set_state = serializers.CharField(required=False, allow_blank=True, max_length=40)
        character_ids = serializers.ListField(child=serializers.IntegerField(), required=False,
                                              max_length=10000)
        team = serializers.CharField(required=False, max_length=100)
        everyone = serializers.BooleanField(default=False)

        def validate(self, data):
            if not data["text"] and not data["catalogue"]:
                raise serializers.ValidationError(
                    {"text": ["This field is required, unless a catalogue effect is named."]})
            return data

    @extend_schema(responses={201: EffectPushedAnswer}, request=EffectInput, summary="Push an effect "
                   "(\"Effet : ...\"), typed or from the catalogue, to characters, a team or "
                   "everyone; optional duration and health state. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.EffectInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        targets = _targets(event, fields)

        def run():
            effects = services.effect_push(
                event=event, characters=targets, text=fields["text"],
                catalogue=fields["catalogue"] or None, duration_s=fields.get("duration_s"),
                until_removed=fields["until_removed"],
                set_state=fields.get("set_state") or None, by=request.user)
            reached = ({"everyone": True} if targets is None
                       else {"characters": [e.character_id for e in effects]})
            return answer(request, {"push_id": str(effects[0].push_id), **reached,
                                    "durations_s": {str(e.character_id or "everyone"):
                                                    e.duration_s for e in effects}},
                          status=201)
        return idempotent(request, run)


def _targets(event, data) -> list | None:
    """The characters chosen, or None for everyone in the event."""
    chosen = [bool(data.get("character_ids")), bool(data.get("team")), data["everyone"]]
    if sum(chosen) != 1:
        raise RuleRefused("bad_input", detail="choose exactly one of character_ids, team, everyone")
    characters = event.characters.all()
    if data.get("character_ids"):
        found = list(characters.filter(pk__in=data["character_ids"]))
        missing = set(data["character_ids"]) - {c.pk for c in found}
        if missing:
            raise RuleRefused("bad_input", detail=f"no character {sorted(missing)} in this event")
        return found
    if data.get("team"):
        found = list(characters.filter(team__name=data["team"]))
        if not found:
            raise RuleRefused("bad_input", detail=f"no team '{data['team']}' with characters")
        return found
    return None


class EffectApi(APIView):
    @extend_schema(responses={200: EffectRemovedAnswer}, request=None, summary="Remove an effect before it ends (narrators)")
    def delete(self, request, effect_id):
        effect = get_object_or_404(Effect.objects.select_related("event", "character"), pk=effect_id)
        event_for_narrator(request.user, effect.event_id)
        services.effect_remove(effect=effect, by=request.user)
        return answer(request, {"removed": effect.pk})


class CharacterClarityApi(APIView):
    @extend_schema(responses=ClarityAnswer, summary="\"Claridad\": what the character's "
                   "abilities, active effects, state and load mean (its player, narrators)")
    def get(self, request, character_id):
        character, _ = character_visible(request.user, character_id)
        return answer(request, character_clarity(character, timezone.now()))
