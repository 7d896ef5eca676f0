from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from players.apis import answer
from players.idempotency import idempotent
from players.selectors import event_for_narrator
from rulesets import RuleRefused

from . import services
from .models import Effect


class EffectPushApi(APIView):
    class EffectInput(serializers.Serializer):
        text = serializers.CharField(max_length=2000)
        duration_s = serializers.FloatField(required=False, allow_null=True, min_value=1,
                                            max_value=7 * 24 * 3600)
        set_state = serializers.CharField(required=False, allow_blank=True, max_length=40)
        character_ids = serializers.ListField(child=serializers.IntegerField(), required=False,
                                              max_length=10000)
        team = serializers.CharField(required=False, max_length=100)
        everyone = serializers.BooleanField(default=False)

    @extend_schema(responses=OpenApiTypes.OBJECT, request=EffectInput, summary="Push an effect (\"Effet : ...\") to characters, a "
                   "team or everyone; optional duration and health state. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.EffectInput(data=request.data)
        data.is_valid(raise_exception=True)
        targets = _targets(event, data.validated_data)

        def run():
            effects = services.effect_push(
                event=event, characters=targets, text=data.validated_data["text"],
                duration_s=data.validated_data.get("duration_s"),
                set_state=data.validated_data.get("set_state") or None, by=request.user)
            reached = ({"everyone": True} if targets is None
                       else {"characters": [e.character_id for e in effects]})
            return answer(request, {"push_id": str(effects[0].push_id), **reached}, status=201)
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
    @extend_schema(responses=OpenApiTypes.OBJECT, request=None, summary="Remove an effect before it ends (narrators)")
    def delete(self, request, effect_id):
        effect = get_object_or_404(Effect.objects.select_related("event", "character"), pk=effect_id)
        event_for_narrator(request.user, effect.event_id)
        services.effect_remove(effect=effect, by=request.user)
        return answer(request, {"removed": effect.pk})
