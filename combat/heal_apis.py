"""The airsoft medic from their own phone (combat/services/heals.py): start a heal or an
extraction after scanning the patient's code, and stop it. Answers like the other
fights: the caller's fresh snapshot (the patient gets theirs pushed)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from rest_framework import serializers
from rest_framework.views import APIView

from players.selectors import own_character

from .answers import HealStartedAnswer, HealStoppedAnswer
from .apis import CODE, _act, _schema
from .models import Heal
from .services.heals import STOP_REASONS, heal_start, heal_stop


class HealStartApi(APIView):
    class HealStartInput(serializers.Serializer):
        patient_code = serializers.CharField(**CODE)
        kind = serializers.ChoiceField(choices=[Heal.HEAL, Heal.EXTRACTION], default=Heal.HEAL)

    @_schema("A teammate in medic mode heals a downed player (count 11 to 20, cannot shoot) "
             "or extracts them (may shoot, no end).", HealStartedAnswer, HealStartInput, status=201)
    def post(self, request, character_id):
        me = own_character(request.user, character_id)
        return _act(request, me, self.HealStartInput, lambda d: {
            "heal": heal_start(medic=me, by=request.user, **d).pk}, status=201)


class HealStopApi(APIView):
    class HealStopInput(serializers.Serializer):
        reason = serializers.ChoiceField(choices=STOP_REASONS, default="hands_off")

    @_schema("The medic stops: hands off, fired (the shot does not count) or hit. The "
             "patient waits again; the next heal counts from 11. At or after the end, it "
             "completes.", HealStoppedAnswer, HealStopInput)
    def post(self, request, heal_id):
        heal = get_object_or_404(Heal, pk=heal_id)
        me = own_character(request.user, heal.medic_id)

        def stop(data):
            stopped = heal_stop(heal=heal, medic=me, by=request.user, **data)
            return {"heal": stopped.pk, "status_of_heal": stopped.status}
        return _act(request, me, self.HealStopInput, stop)
