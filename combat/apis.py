"""Fights from a phone: a player acts as their own character only. Each view parses the
input, calls one service and answers with the caller's fresh snapshot, so that the phone
shows the outcome at once (the other side gets theirs pushed)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from health.selectors import character_for_snapshot, character_snapshot
from players.apis import answer
from players.idempotency import idempotent
from players.selectors import own_character

from .models import Acharnement, Duel
from .services.beatings import acharnement_start, acharnement_stop
from .services.duels import WEAPONS, duel_answer, duel_propose
from .services.firearms import firearm_load, firearm_shoot, firearm_take
from .services.searches import character_search
from .services.unions import union_claim, union_join

CODE = {"max_length": 40}


def codes(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(**CODE), max_length=200, **kwargs)


def _done(request, character, status=200, **extra):
    now = timezone.now()
    snapshot = character_snapshot(character_for_snapshot(character.pk, now), now)
    return answer(request, {**extra, "snapshot": snapshot}, status=status)


class DuelProposeApi(APIView):
    class Input(serializers.Serializer):
        opponent_code = serializers.CharField(**CODE)

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="Challenge another character to a bare-hand duel (they confirm). Idempotency-Key header.")
    def post(self, request, character_id):
        challenger = own_character(request.user, character_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            duel = duel_propose(challenger=challenger, by=request.user, **data.validated_data)
            return _done(request, challenger, status=201, duel=duel.pk)
        return idempotent(request, run)


class DuelAnswerApi(APIView):
    class Input(serializers.Serializer):
        accept = serializers.BooleanField()
        weapon_in_hand = serializers.ChoiceField(choices=["none", *WEAPONS], default="none")

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="The challenged character accepts (the server compares the scores and tells each side only its result) or declines. Idempotency-Key header.")
    def post(self, request, duel_id):
        duel = get_object_or_404(Duel, pk=duel_id)
        defender = own_character(request.user, duel.defender_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            closed = duel_answer(duel=duel, defender=defender, by=request.user, **data.validated_data)
            return _done(request, defender, duel=closed.pk)
        return idempotent(request, run)


class UnionClaimApi(APIView):
    class Input(serializers.Serializer):
        attacker_codes = codes(required=False, default=list)
        defender_codes = codes(min_length=1)
        weapon_drawn = serializers.BooleanField()

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="Claim \"l'union fait la force\" with the attackers (the caller is one) against the defenders. Idempotency-Key header.")
    def post(self, request, character_id):
        claimant = own_character(request.user, character_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            union = union_claim(claimant=claimant, by=request.user, **data.validated_data)
            return _done(request, claimant, status=201, union=union.pk)
        return idempotent(request, run)


class UnionJoinApi(APIView):
    class Input(serializers.Serializer):
        defender_code = serializers.CharField(**CODE)

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="Join the defenders of a pending union within its window (a rebalanced union falls). Idempotency-Key header.")
    def post(self, request, character_id):
        joiner = own_character(request.user, character_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            union = union_join(joiner=joiner, by=request.user, **data.validated_data)
            return _done(request, joiner, union=union.pk, status_of_union=union.status)
        return idempotent(request, run)


class AcharnementStartApi(APIView):
    class Input(serializers.Serializer):
        victim_code = serializers.CharField(**CODE)
        kind = serializers.CharField(max_length=40)

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="Start an acharnement on a Tired (bare hands) or Wounded (wounding weapon) victim. Idempotency-Key header.")
    def post(self, request, character_id):
        attacker = own_character(request.user, character_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            beating = acharnement_start(attacker=attacker, by=request.user, **data.validated_data)
            return _done(request, attacker, status=201, acharnement=beating.pk)
        return idempotent(request, run)


class AcharnementStopApi(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, request=None, summary="The attacker stops the acharnement (before the end it does nothing; after, it completes). Idempotency-Key header.")
    def post(self, request, acharnement_id):
        beating = get_object_or_404(Acharnement, pk=acharnement_id)
        attacker = own_character(request.user, beating.attacker_id)

        def run():
            stopped = acharnement_stop(acharnement=beating, attacker=attacker, by=request.user)
            return _done(request, attacker, acharnement=stopped.pk, status_of_acharnement=stopped.status)
        return idempotent(request, run)


class SearchApi(APIView):
    class Input(serializers.Serializer):
        target_code = serializers.CharField(**CODE)
        location = serializers.CharField(max_length=100)
        strip = serializers.BooleanField(default=False)

    @extend_schema(responses=OpenApiTypes.OBJECT, request=Input, summary="Search an inert character at a named place (trousers, boots...); strip: everything taken. Idempotency-Key header.")
    def post(self, request, character_id):
        searcher = own_character(request.user, character_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            target = character_search(searcher=searcher, by=request.user, **data.validated_data)
            return _done(request, searcher, searched=target.name)
        return idempotent(request, run)


class FirearmApi(APIView):
    """/characters/{id}/firearms/{code}/{take|load|shoot}/"""

    class ShotInput(serializers.Serializer):
        victim_code = serializers.CharField(**CODE)
        distance_m = serializers.FloatField(min_value=0, max_value=1000)
        obstacle = serializers.BooleanField()

    @extend_schema(responses=OpenApiTypes.OBJECT, request=ShotInput, summary="Take a firearm in hand, load it (skill \"Charger une arme à feu\") or shoot (body: victim_code, distance_m, obstacle). Idempotency-Key header.")
    def post(self, request, character_id, code, verb):
        character = own_character(request.user, character_id)
        if verb == "shoot":
            data = self.ShotInput(data=request.data)
            data.is_valid(raise_exception=True)

        def run():
            if verb == "take":
                item = firearm_take(character=character, code=code, by=request.user)
                return _done(request, character, firearm=item.code, loaded=item.loaded)
            if verb == "load":
                item = firearm_load(character=character, code=code, by=request.user)
                return _done(request, character, firearm=item.code, loaded=item.loaded)
            shot = firearm_shoot(shooter=character, code=code, by=request.user, **data.validated_data)
            return _done(request, character, **shot)
        return idempotent(request, run)
