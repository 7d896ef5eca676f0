"""Fights from a phone: a player acts as their own character only. Each view parses the
input, calls one service and answers with the caller's fresh snapshot, so that the phone
shows the outcome at once (the other side gets theirs pushed)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from live.snapshots import character_for_snapshot, character_snapshot
from common.http import answer
from common.idempotency import idempotent
from players.selectors import own_character

from .answers import (AcharnementStartedAnswer, AcharnementStoppedAnswer, DuelStepAnswer,
                      FirearmAnswer, SearchedAnswer, ShotAnswer, UnionClaimedAnswer,
                      UnionJoinedAnswer)
from .models import Acharnement, Duel
from .services.beatings import acharnement_start, acharnement_stop
from .services.duels import WEAPONS, duel_answer, duel_propose
from .services.firearms import firearm_load, firearm_shoot, firearm_take
from .services.searches import character_search
from .services.shots import shot_declare
from .services.unions import union_claim, union_join

CODE = {"max_length": 40}


def codes(**kwargs) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(**CODE), max_length=200, **kwargs)


def _act(request, character, Input, call, status=200):
    """Validate `Input`, then (once per Idempotency-Key) `call(data)` -> what to answer
    besides the character's fresh snapshot."""
    data = {}
    if Input is not None:
        parsed = Input(data=request.data)
        parsed.is_valid(raise_exception=True)
        data = parsed.validated_data

    def run():
        extra = call(data)
        now = timezone.now()
        snapshot = character_snapshot(character_for_snapshot(character.pk, now), now)
        return answer(request, {**extra, "snapshot": snapshot}, status=status)
    return idempotent(request, run)


def _schema(summary, answer, Input=None, status=200):
    return extend_schema(responses={status: answer}, request=Input,
                         summary=f"{summary} Idempotency-Key header.")


class DuelProposeApi(APIView):
    class DuelProposeInput(serializers.Serializer):
        opponent_code = serializers.CharField(**CODE)

    @_schema("Challenge another character to a bare-hand duel (they confirm).", DuelStepAnswer,
             DuelProposeInput, status=201)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.DuelProposeInput, lambda d: {
            "duel": duel_propose(challenger=me, by=request.user, **d).pk}, status=201)


class DuelAnswerApi(APIView):
    class DuelAnswerInput(serializers.Serializer):
        accept = serializers.BooleanField()
        weapon_in_hand = serializers.ChoiceField(choices=["none", *WEAPONS], default="none")

    @_schema("The challenged character accepts (the server compares the scores and tells "
             "each side only its result) or declines.", DuelStepAnswer, DuelAnswerInput)
    def post(self, request, duel_id):
        duel = get_object_or_404(Duel, pk=duel_id)
        me = own_character(request.user, duel.defender_id)
        return _act(request, me, self.DuelAnswerInput, lambda d: {
            "duel": duel_answer(duel=duel, defender=me, by=request.user, **d).pk})


class UnionClaimApi(APIView):
    class UnionClaimInput(serializers.Serializer):
        attacker_codes = codes(required=False, default=list)
        defender_codes = codes(min_length=1)
        weapon_drawn = serializers.BooleanField()

    @_schema("Claim \"l'union fait la force\" with the attackers (the caller is one) "
             "against the defenders.", UnionClaimedAnswer, UnionClaimInput,
             status=201)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.UnionClaimInput, lambda d: {
            "union": union_claim(claimant=me, by=request.user, **d).pk}, status=201)


class UnionJoinApi(APIView):
    class UnionJoinInput(serializers.Serializer):
        defender_code = serializers.CharField(**CODE)

    @_schema("Join the defenders of a pending union within its window (a rebalanced union "
             "falls).", UnionJoinedAnswer, UnionJoinInput)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)

        def join(data):
            union = union_join(joiner=me, by=request.user, **data)
            return {"union": union.pk, "status_of_union": union.status}
        return _act(request, me, self.UnionJoinInput, join)


class AcharnementStartApi(APIView):
    class AcharnementStartInput(serializers.Serializer):
        victim_code = serializers.CharField(**CODE)
        kind = serializers.CharField(max_length=40)

    @_schema("Start an acharnement on a Tired (bare hands) or Wounded (wounding weapon) "
             "victim.", AcharnementStartedAnswer, AcharnementStartInput, status=201)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.AcharnementStartInput, lambda d: {
            "acharnement": acharnement_start(attacker=me, by=request.user, **d).pk}, status=201)


class AcharnementStopApi(APIView):
    @_schema("The attacker stops the acharnement (before the end it does nothing; after, "
             "it completes).", AcharnementStoppedAnswer)
    def post(self, request, acharnement_id):
        beating = get_object_or_404(Acharnement, pk=acharnement_id)
        me = own_character(request.user, beating.attacker_id)

        def stop(_):
            stopped = acharnement_stop(acharnement=beating, attacker=me, by=request.user)
            return {"acharnement": stopped.pk, "status_of_acharnement": stopped.status}
        return _act(request, me, None, stop)


class SearchApi(APIView):
    class SearchInput(serializers.Serializer):
        target_code = serializers.CharField(**CODE)
        location = serializers.CharField(max_length=100)
        strip = serializers.BooleanField(default=False)

    @_schema("Search an inert character at a named place (trousers, boots...); strip: "
             "everything taken.", SearchedAnswer, SearchInput)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.SearchInput, lambda d: {
            "searched": character_search(searcher=me, by=request.user, **d).name})


class FirearmApi(APIView):
    """/characters/{id}/firearms/{code}/{take|load|shoot}/"""

    class ShotInput(serializers.Serializer):
        victim_code = serializers.CharField(**CODE)
        distance_m = serializers.FloatField(min_value=0, max_value=1000)
        obstacle = serializers.BooleanField()
        misfire = serializers.BooleanField(required=False, default=False)
        conditions = serializers.ListField(child=serializers.CharField(max_length=40),
                                           required=False, default=list, max_length=10)

    @_schema("Take a firearm in hand, load it (skill \"Charger une arme à feu\") or shoot "
             "(body: victim_code, distance_m, obstacle, misfire: the cap did not go off, "
             "conditions: those of the ruleset's firearm misses_if that held).",
             FirearmAnswer, ShotInput)
    def post(self, request, character_id, code, verb):
        me = own_character(request.user, character_id)
        if verb == "shoot":
            return _act(request, me, self.ShotInput, lambda d: firearm_shoot(
                shooter=me, code=code, by=request.user, **d))
        service = firearm_take if verb == "take" else firearm_load

        def handle(_):
            item = service(character=me, code=code, by=request.user)
            return {"firearm": item.code, "loaded": item.loaded}
        return _act(request, me, None, handle)


class ShotApi(APIView):
    """/characters/{id}/shots/: the player hit names who shot them (airsoft)."""

    class ShotByInput(serializers.Serializer):
        shooter_code = serializers.CharField(**CODE)

    @_schema("Hit, naming the shooter (the code on their QR): the hit counts only from a "
             "shooter in play; a shot before \"retour en jeu\" or while out is void "
             "(counted on the shooter when their rules say so).", ShotAnswer, ShotByInput)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.ShotByInput, lambda d: shot_declare(
            target=me, shooter_code=d["shooter_code"], by=request.user))
