"""Events, characters, logins and the journal. Views parse input, call one
service and serialize the answer."""
from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.contrib.auth import get_user_model, login
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rulesets import RuleRefused, available_rulesets, get_ruleset

from common.csv_out import SafeWriter
from common.http import MAX_ID, answer
from common.numbers import whole_number
from common.idempotency import SECRET_REISSUERS, carrying_secret, idempotent

from . import services, setup_services
from .answers import (EventCreatedAnswer, JournalAnswer, LoginAnswer, LoginLinkAnswer, MeAnswer,
                      MyEventsAnswer, RulesetAnswer)
from .login_cards import login_card_replace
from .models import Character, Event
from .selectors import event_for_member, event_for_narrator, journal_entries, user_events


class LoginApi(APIView):
    permission_classes = [AllowAny]

    class LoginInput(serializers.Serializer):
        token = serializers.CharField(max_length=200)

    @extend_schema(responses=LoginAnswer, request=LoginInput, summary="Open a session from a one-time login link")
    def post(self, request):
        data = self.LoginInput(data=request.data)
        data.is_valid(raise_exception=True)
        user, event = services.login_token_redeem_limited(raw=data.validated_data["token"],
                                           ip=request.META.get("REMOTE_ADDR", ""))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return answer(request, {"user": user.get_username(), "event": event.pk,
                                "events": user_events(user), "characters": _characters_of(user)})


def _characters_of(user) -> list[dict]:
    # race_entry: a race survivor's phone opens its entry (the race app's reverse link).
    return [{"id": c.pk, "name": c.name, "event": c.event_id, "code": c.code,
             "medic": _is_medic(c), "race_entry": _race_entry_id(c)}
            for c in Character.objects.filter(user=user).select_related("event", "race_entry")]


def _race_entry_id(character: Character) -> int | None:
    try:
        return character.race_entry.pk
    except ObjectDoesNotExist:
        return None


def _is_medic(character: Character) -> bool:
    """Whether the sheet allows any treatment: the phone then offers the medic screen."""
    rules = character.event.rules()
    return any("other" in action["declared_by"]
               or ("medic" in action["declared_by"] and rules.skill_level(key, character.sheet))
               for key, action in rules.ruleset.actions.items())


class MeApi(APIView):
    @extend_schema(responses=MeAnswer, summary="Who am I: my events, roles and characters")
    def get(self, request):
        return answer(request, {"user": request.user.get_username(),
                                "events": user_events(request.user),
                                "characters": _characters_of(request.user)})


class RulesetApi(APIView):
    @extend_schema(responses=RulesetAnswer, summary="A ruleset as data: states, timers, actions, points, options, "
                   "effect catalogue, abilities")
    def get(self, request, key):
        if key not in available_rulesets():
            return answer(request, {"error": "not_found", "detail": key}, status=404)
        rs = get_ruleset(key)
        return answer(request, {
            "key": rs.key, "name": rs.name, "initial_state": rs.initial_state,
            "states": {k: {"label": s["labels"], "severity": s["severity"], "inert": bool(s.get("inert"))}
                       for k, s in rs.states.items()},
            "timers": {k: {"label": t["labels"]} for k, t in rs.timers.items()},
            "actions": {k: {"label": a["labels"], "declared_by": a["declared_by"],
                            "skill": a.get("skill"), "kit": a.get("kit"),
                            "params": {p: {"type": v["type"], "label": v["labels"]}
                                       for p, v in (a.get("params") or {}).items()}}
                        for k, a in rs.actions.items()},
            "points": {k: {"label": p["labels"]} for k, p in rs.points.items()},
            "skills": {k: {"label": s["labels"], "levels": s.get("levels")} for k, s in rs.skills.items()},
            "kits": {k: {"label": s["labels"]} for k, s in rs.kits.items()},
            "options": rs.options,
            "traits": {k: {"label": label} for k, label in rs.traits.items()},
            # What a phone may start against someone else, and the choices each needs.
            "interactions": {k: {"label": i.get("labels", {"en": k}),
                                 "kinds": {kind: {"label": spec["labels"]}
                                           for kind, spec in (i.get("kinds") or {}).items()},
                                 "misses_if": {key: {"label": spec["labels"]}
                                               for key, spec in (i.get("misses_if") or {}).items()}}
                             for k, i in rs.interactions.items()},
            # The named effects narrators push (septenario: Muerte, Derribo...) and the
            # abilities (Rasgos) a sheet may list, with what "Claridad" explains of each.
            "catalogue": {k: {"label": e["labels"], "explains": e["explains"],
                              "set_state": e.get("set_state"), "action": e.get("action")}
                          for k, e in rs.catalogue.items()},
            "abilities": {k: {"label": a["labels"], "explains": a["explains"],
                              "skill": a.get("skill")} for k, a in rs.abilities.items()},
        })


class EventListApi(APIView):
    class EventInput(serializers.Serializer):
        name = serializers.CharField(max_length=200)
        ruleset = serializers.ChoiceField(choices=available_rulesets())
        options = serializers.DictField(required=False, default=dict)
        language = serializers.ChoiceField(choices=["fr", "es", "en"], default="fr")
        time_zone = serializers.CharField(max_length=64, default="Europe/Paris")
        display = serializers.ChoiceField(choices=[key for key, _ in Event.DISPLAYS], default="dark")
        starts_on = serializers.DateField(required=False, allow_null=True, default=None)
        start_clock = serializers.BooleanField(default=False)

    @extend_schema(responses=MyEventsAnswer, summary="My events")
    def get(self, request):
        return answer(request, {"events": user_events(request.user)})

    @extend_schema(responses={201: EventCreatedAnswer}, request=EventInput, summary="Create an event (organisers with a staff account)")
    def post(self, request):
        if not request.user.is_staff:
            raise PermissionDenied()
        data = self.EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        event = setup_services.event_set_up(by=request.user, **data.validated_data)
        return answer(request, {"id": event.pk, "name": event.name, "ruleset": event.ruleset,
                                "options": event.rules().options}, status=201)


def login_url(raw: str) -> str:
    return f"{settings.PUBLIC_URL}/login/{raw}"


def _login_url_reissue(*, event: int, user: int, by) -> str:
    raw = services.login_token_issue(event=Event.objects.get(pk=event),
                                     user=get_user_model().objects.get(pk=user), by=by)
    return login_url(raw)


SECRET_REISSUERS["login_url"] = _login_url_reissue


def login_url_answer(request, data: dict, *, event, user, status=201):
    """An answer whose `url` is a login link: an idempotent replay issues a fresh one,
    the link itself never rests in the idempotency table."""
    return carrying_secret(answer(request, data, status=status), field="url", kind="login_url",
                           args={"event": event.pk, "user": user.pk})


class LoginLinkApi(APIView):
    @extend_schema(responses={201: LoginLinkAnswer}, request=None, summary="Issue a one-time login link for a character (narrators); "
                   "the person's older links stop working. Idempotency-Key header: a replay issues a fresh link.")
    def post(self, request, character_id):
        character = get_object_or_404(Character.objects.select_related("event"), pk=character_id)
        event_for_narrator(request.user, character.event_id)

        def run():
            raw = services.login_token_issue(event=character.event, user=character.user, by=request.user)
            return login_url_answer(request, {"character": character.pk, "url": login_url(raw)},
                                    event=character.event, user=character.user)
        return idempotent(request, run)


class LoginQrApi(APIView):
    @extend_schema(responses={(200, "image/svg+xml"): OpenApiTypes.STR}, request=None, summary="Replace a character's card code (narrators) and answer "
                   "its login QR code (SVG): their printed card and unused links stop working, nobody else's change")
    def post(self, request, character_id):
        character = get_object_or_404(Character.objects.select_related("event"), pk=character_id)
        event_for_narrator(request.user, character.event_id)
        raw = login_card_replace(character=character, by=request.user)
        image = qrcode.make(login_url(raw), image_factory=qrcode.image.svg.SvgPathImage)
        return HttpResponse(image.to_string(), content_type="image/svg+xml")


def _journal_row(entry) -> dict:
    return {"id": entry.id, "at": entry.at.isoformat(), "game_s": round(entry.game_s, 3),
            "who": entry.actor_label, "kind": entry.kind, "what": entry.what,
            "character": entry.character.name if entry.character else None,
            "character_id": entry.character_id, "before": entry.before, "after": entry.after,
            "detail": entry.detail}


class JournalApi(APIView):
    @extend_schema(responses=JournalAnswer, parameters=[OpenApiParameter("after", int), OpenApiParameter("character", int),
                               OpenApiParameter("last", int, description="only the newest N lines")],
                   summary="The journal (narrators), oldest first, 500 lines a page")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        rows = journal_entries(event, after_id=_int(request, "after"),
                               character_id=_int(request, "character") or None,
                               last=_int(request, "last") or None)
        return Response({"entries": [_journal_row(e) for e in rows]})


class JournalCsvApi(APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="The whole journal as CSV (narrators)")
    def get(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        out = io.StringIO()
        writer = SafeWriter(out)   # no cell a spreadsheet would run
        writer.writerow(["id", "wall_time", "game_s", "who", "kind", "what", "character",
                         "state_before", "state_after", "detail"])
        after = 0
        while rows := list(journal_entries(event, after_id=after, limit=2000)):
            for e in rows:
                writer.writerow([e.id, e.at.isoformat(), round(e.game_s, 3), e.actor_label, e.kind,
                                 e.what, e.character.name if e.character else "",
                                 (e.before or {}).get("status", ""), (e.after or {}).get("status", ""),
                                 e.detail])
            after = rows[-1].id
        response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="journal-event-{event.pk}.csv"'
        return response


def _int(request, name: str) -> int:
    raw = request.query_params.get(name, "0")
    value = whole_number(raw)
    if value is None:
        raise RuleRefused("bad_input", detail=f"'{name}' must be a whole number, got '{raw[:30]}' "
                                              f"(at most {MAX_ID})")
    return value

