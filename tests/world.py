"""Everything a request could change, read back from the database: a refusal must leave
it exactly as it was."""
from __future__ import annotations

from django.contrib.auth import get_user_model

from club.models import ChronyCheck, Replica
from effects.models import Effect, Item, OrganiserRequest
from health.models import HealthState, Treatment
from players.models import Character, Event, JournalEntry, LoginToken, Membership, Team
from club.models import Member, Sanction
from common.models import IdempotencyRecord
from schedule.models import Game
from push.models import PushSubscription


def _rows(queryset, *fields) -> list:
    return list(queryset.order_by("pk").values_list(*fields))


def fingerprint() -> dict:
    return {
        "events": _rows(Event.objects, "pk", "name", "clock_running_since", "clock_elapsed_s"),
        "characters": _rows(Character.objects, "pk", "name", "sheet", "kits", "team"),
        "health": _rows(HealthState.objects, "pk", "status", "version", "timers", "values"),
        "treatments": _rows(Treatment.objects, "pk", "status"),
        "effects": _rows(Effect.objects, "pk", "removed"),
        "items": _rows(Item.objects, "pk", "used_by", "used_game_s", "holder", "loaded",
                       "closed"),
        "requests": _rows(OrganiserRequest.objects, "pk", "status", "answer", "effect"),
        "tokens": _rows(LoginToken.objects, "pk", "used_at"),
        "journal": JournalEntry.objects.count(),
        "idempotency": IdempotencyRecord.objects.count(),
        "push": _rows(PushSubscription.objects, "pk"),
        "memberships": Membership.objects.count(),
        "teams": Team.objects.count(),
        "users": get_user_model().objects.count(),
        "members": _rows(Member.objects, "pk", "licence_number"),
        "sanctions": _rows(Sanction.objects, "pk", "kind", "revoked_at"),
        "replicas": _rows(Replica.objects, "pk"),
        "chrony": _rows(ChronyCheck.objects, "pk", "passed"),
        "games": _rows(Game.objects, "pk", "scenario", "options", "started_at", "ended_at"),
        "shown": _rows(Event.objects, "pk", "options", "announcement"),
    }
