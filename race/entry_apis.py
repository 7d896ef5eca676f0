"""What happens to one entry during the race: gear check, deposit, start, punches, lives,
carrier, finish, finger return, abandon, disqualification, and the entry's own view.

Each action is a small view: who may (a lookup that answers 404 to anyone else), its
input, and the one service it calls. The answer is the entry as the caller may see it.
"""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.views import APIView

from common.http import answer
from schedule.day_apis import AwareDateTimeField
from common.idempotency import idempotent
from players.selectors import is_narrator

from .action_answers import (RaceInfractionRecordedAnswer, RacePunchedAnswer,
                             RaceZoneLossRecordedAnswer)
from .answers import RaceEntryAnswer
from .selectors.boards import entry_answer
from .models import Infraction, LifeLoss, Punch
from .selectors.entries import (entry_for_marshal, entry_for_organiser, entry_for_reporter,
                                entry_visible, life_loss_for_organiser)
from .services import entries, lives, punches, running


def _summary(text: str):
    """The schema of an action: its input serializer (none for an empty one), its answer
    (with its status), its summary."""
    def document(view):
        request = view.Input if view.Input.__dict__.get("_declared_fields") else None
        return extend_schema_view(post=extend_schema(
            responses={view.status: view.Answer}, request=request,
            summary=text + " Idempotency-Key header."))(view)
    return document


class _EntryAction(APIView):
    """POST: look the entry up for this caller, check the input, call one service.
    Each subclass (one per route) defines `act(request, entry, data, as_organiser)`,
    which calls its service and returns what to add to the answer."""

    class RaceNoInput(serializers.Serializer):
        pass

    Input = RaceNoInput
    Answer = RaceEntryAnswer
    status = 200

    def lookup(self, request, entry_id):
        """(entry, whether the caller acts as an organiser)."""
        return entry_for_organiser(request.user, entry_id), True

    def post(self, request, entry_id):
        entry, as_organiser = self.lookup(request, entry_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            extra = self.act(request, entry, dict(data.validated_data), as_organiser) or {}
            if as_organiser or entry.character.user_id == request.user.pk:
                body = entry_answer(entry, as_organiser=as_organiser, now=timezone.now())
            else:   # a marshal or a zombie: what they did, not the survivor's race
                body = {"entry": {"id": entry.pk, "name": entry.name}}
            return answer(request, {**body, **extra}, status=self.status)
        return idempotent(request, run)


class EntryApi(APIView):
    @extend_schema(responses=RaceEntryAnswer, summary="An entry: lives, deadline instant "
                   "(time left), punches, score estimate, status. Its survivor (own entry "
                   "only, no phone number) or organisers (with it).")
    def get(self, request, entry_id):
        entry, as_organiser = entry_visible(request.user, entry_id)
        return answer(request, entry_answer(entry, as_organiser=as_organiser, now=timezone.now()))


@_summary("Mandatory gear checked before the start: vest, light, charged phone (organisers).")
class GearApi(_EntryAction):
    class RaceGearInput(serializers.Serializer):
        vest = serializers.BooleanField(required=False)
        light = serializers.BooleanField(required=False)
        phone = serializers.BooleanField(required=False)

    Input = RaceGearInput

    def act(self, request, entry, data, as_organiser):
        entries.entry_gear_check(entry=entry, gear=data, by=request.user)


@_summary("The deposit cheque is taken against the finger (organisers).")
class DepositApi(_EntryAction):
    def act(self, request, entry, data, as_organiser):
        entries.entry_deposit_take(entry=entry, by=request.user)


class RaceInstantInput(serializers.Serializer):
    at = AwareDateTimeField(required=False, help_text="Read off a watch; default now.")


@_summary("Individual start (start punch or late runner): refused, naming it, while any "
          "mandatory gear is not checked (organisers).")
class StartApi(_EntryAction):
    Input = RaceInstantInput

    def act(self, request, entry, data, as_organiser):
        running.entry_start(entry=entry, by=request.user, **data)


@_summary("Finish: records the time; optional flags_on_belt is checked against the lives "
          "recorded (organisers).")
class FinishApi(_EntryAction):
    class RaceFinishInput(RaceInstantInput):
        flags_on_belt = serializers.IntegerField(min_value=0, max_value=10, required=False)

    Input = RaceFinishInput

    def act(self, request, entry, data, as_organiser):
        running.entry_finish(entry=entry, by=request.user, **data)


@_summary("The finger is handed back and the deposit returned (organisers).")
class FingerReturnApi(_EntryAction):
    def act(self, request, entry, data, as_organiser):
        running.entry_finger_return(entry=entry, by=request.user)


@_summary("Did not finish: an organiser records it (finger back unless finger_back is false), "
          "or the survivor abandons from their phone (still out until the finger is back).")
class AbandonApi(_EntryAction):
    class RaceAbandonInput(serializers.Serializer):
        reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
        finger_back = serializers.BooleanField(required=False, default=True)

    Input = RaceAbandonInput

    def lookup(self, request, entry_id):
        return entry_visible(request.user, entry_id)

    def act(self, request, entry, data, as_organiser):
        running.entry_abandon(entry=entry, by=request.user, reason=data["reason"],
                              finger_back=data["finger_back"] and as_organiser)


@_summary("Disqualification for violence, even verbal: the finger is taken back, no score "
          "(organisers).")
class DisqualifyApi(_EntryAction):
    class RaceDisqualifyInput(serializers.Serializer):
        reason = serializers.CharField(max_length=300)

    Input = RaceDisqualifyInput

    def act(self, request, entry, data, as_organiser):
        running.entry_disqualify(entry=entry, by=request.user, **data)


@_summary("A team's finger and belt change hands (its survivor's phone or organisers).")
class CarrierApi(_EntryAction):
    class RaceCarrierInput(serializers.Serializer):
        carrier = serializers.CharField(max_length=100)

    Input = RaceCarrierInput

    def lookup(self, request, entry_id):
        return entry_visible(request.user, entry_id)

    def act(self, request, entry, data, as_organiser):
        entries.entry_carrier_change(entry=entry, by=request.user, **data)


@_summary("A punch: the survivor's phone sends the balise QR's content (checkpoint), an "
          "organiser the QR or the balise's number; optional at (offline scans). Answers "
          "whether it counts.")
class PunchApi(_EntryAction):
    class RacePunchInput(RaceInstantInput):
        checkpoint = serializers.CharField(max_length=200)

    Input = RacePunchInput
    Answer = RacePunchedAnswer
    status = 201

    def lookup(self, request, entry_id):
        return entry_visible(request.user, entry_id)

    def act(self, request, entry, data, as_organiser):
        punch, created = punches.punch_record(
            entry=entry, by=request.user, source=Punch.ORGANISER if as_organiser else Punch.PHONE,
            **data)
        return {"punch": {"id": punch.pk, "new": created}}


@_summary("A marshal records leaving the race zone or a forbidden path/fence: a life if one "
          "is left and the options say so (organisers, referees).")
class ZoneLossApi(_EntryAction):
    class RaceZoneLossInput(serializers.Serializer):
        cause = serializers.ChoiceField(choices=[LifeLoss.OUT_OF_ZONE, LifeLoss.FORBIDDEN_PATH])
        note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")

    Input = RaceZoneLossInput
    Answer = RaceZoneLossRecordedAnswer
    status = 201

    def lookup(self, request, entry_id):
        entry = entry_for_marshal(request.user, entry_id)
        return entry, is_narrator(request.user, entry.event)

    def act(self, request, entry, data, as_organiser):
        loss = lives.zone_loss_record(entry=entry, by=request.user, **data)
        return {"life_loss": {"id": loss.pk, "took_life": loss.took_life,
                              "no_life_left": loss.no_life_left}}


@_summary("Log an infraction that costs no life (hidden lives, moved balise, bike, traffic "
          "code...); penalty points by organisers only.")
class InfractionApi(_EntryAction):
    class RaceInfractionInput(serializers.Serializer):
        kind = serializers.ChoiceField(choices=Infraction.TYPED)
        note = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
        penalty_points = serializers.IntegerField(min_value=0, max_value=1000, required=False,
                                                  default=0)

    Input = RaceInfractionInput
    Answer = RaceInfractionRecordedAnswer
    status = 201

    def lookup(self, request, entry_id):
        entry = entry_for_reporter(request.user, entry_id)
        return entry, is_narrator(request.user, entry.event)

    def act(self, request, entry, data, as_organiser):
        infraction = lives.infraction_record(entry=entry, by=request.user,
                                             as_organiser=as_organiser, **data)
        return {"infraction": {"id": infraction.pk}}


class LifeLossVoidApi(APIView):
    class RaceVoidInput(serializers.Serializer):
        reason = serializers.CharField(max_length=300)

    Input = RaceVoidInput

    @extend_schema(responses=RaceEntryAnswer, request=Input, summary="Void a life loss "
                   "(invalid grab, wrong call): the life comes back, with the reason "
                   "(organisers). Idempotency-Key header.")
    def post(self, request, loss_id):
        loss = life_loss_for_organiser(request.user, loss_id)
        data = self.Input(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            lives.life_loss_void(loss=loss, by=request.user, **data.validated_data)
            return answer(request, entry_answer(loss.entry, as_organiser=True, now=timezone.now()))
        return idempotent(request, run)
