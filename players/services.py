"""Writes for events, characters, logins, the game clock and the journal."""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from rulesets import RuleRefused, RulesetError, get_ruleset

from .models import Character, Event, JournalEntry, LoginToken, Membership, Team
from .realtime import publish_characters_on_commit, publish_narrators_on_commit


def actor_label(user, event: Event) -> str:
    if user is None:
        return "system"
    name = Character.objects.filter(event=event, user=user).values_list("name", flat=True).first()
    return name or user.get_username()


def journal_write_many(*, event: Event, kind: str, what: str, at: datetime, by,
                       characters, detail: dict) -> None:
    """One line per character for one act (an effect pushed to a team), in one insert; a
    None character is a line for the whole event."""
    label, game_s = actor_label(by, event), event.game_time(at)
    JournalEntry.objects.bulk_create(
        (JournalEntry(event=event, character=c, actor=by, actor_label=label, kind=kind,
                      what=what, at=at, game_s=game_s, detail=detail) for c in characters),
        batch_size=1000)


def journal_write(*, event: Event, kind: str, what: str, at: datetime, by=None,
                  character: Character | None = None, before=None, after=None,
                  detail: dict | None = None, game_s: float | None = None) -> JournalEntry:
    """`game_s` defaults to the game time at `at`; an automatic transition passes the game
    time of the deadline it applies, which a late worker may find after the fact."""
    return JournalEntry.objects.create(
        event=event, character=character, actor=by, actor_label=actor_label(by, event), kind=kind,
        what=what, at=at, game_s=event.game_time(at) if game_s is None else game_s,
        before=before, after=after, detail=detail or {})


@transaction.atomic
def event_create(*, name: str, ruleset: str, options: dict | None = None, language: str = "fr",
                 by, start_clock: bool = False) -> Event:
    try:
        get_ruleset(ruleset).merged_options(options or {})
    except RulesetError as exc:
        raise RuleRefused("bad_option", option=ruleset, detail=str(exc)) from exc
    now = timezone.now()
    event = Event.objects.create(name=name, ruleset=ruleset, options=options or {},
                                 language=language, clock_running_since=now if start_clock else None)
    if by is not None:
        Membership.objects.get_or_create(event=event, user=by, role=Membership.NARRATOR)
    journal_write(event=event, kind="event", what="created", at=now, by=by,
                  detail={"ruleset": ruleset, "options": options or {}})
    return event


@transaction.atomic
def team_get_or_create(*, event: Event, name: str) -> Team:
    return Team.objects.get_or_create(event=event, name=name)[0]


@transaction.atomic
def character_create(*, event: Event, name: str, sheet: dict | None = None,
                     kits: dict | None = None, team: Team | None = None, by=None) -> Character:
    """A character, its player account (no password: players log in by link) and its
    initial health."""
    from health.services import health_initialise

    sheet = sheet or {}
    base = sheet.get("combat_base")
    rules = event.rules()
    if base is not None and rules.has("combat_base"):
        low, high = rules.option("combat_base_min"), rules.option("combat_base_max")
        if not low <= base <= high:
            raise RuleRefused("bad_input", detail=f"combat_base must be between {low} and {high}")
    user = get_user_model().objects.create_user(username=f"e{event.pk}-{secrets.token_hex(6)}")
    character = Character.objects.create(event=event, name=name, sheet=sheet, kits=kits or {},
                                         team=team, user=user)
    Membership.objects.create(event=event, user=user, role=Membership.PLAYER)
    health_initialise(character=character)
    journal_write(event=event, kind="character", what="created", at=timezone.now(), by=by,
                  character=character, after={"sheet": sheet, "kits": kits or {}})
    return character


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic
def login_token_issue(*, event: Event, user, by=None) -> str:
    """A new single-use login secret for `user`; only its hash is stored."""
    raw = secrets.token_urlsafe(24)
    now = timezone.now()
    LoginToken.objects.create(user=user, event=event, token_hash=_hash(raw),
                              expires_at=now + timedelta(seconds=settings.LOGIN_TOKEN_TTL_S))
    journal_write(event=event, kind="login", what="link_issued", at=now, by=by,
                  detail={"user": user.get_username()})
    return raw


@transaction.atomic
def login_token_redeem(*, raw: str):
    now = timezone.now()
    token = (LoginToken.objects.select_for_update().select_related("user", "event")
             .filter(token_hash=_hash(raw or "")).first())
    if (token is None or token.used_at is not None or token.expires_at <= now
            or not token.user.is_active):  # an organiser deactivated the account
        raise RuleRefused("invalid_login")
    token.used_at = now
    token.save(update_fields=["used_at"])
    journal_write(event=token.event, kind="login", what="link_used", at=now, by=token.user)
    return token.user, token.event


def _all_character_ids(event: Event):
    return event.characters.values_list("pk", flat=True)


@transaction.atomic
def clock_pause(*, event: Event, by) -> Event:
    """Arrêt de jeu: every countdown of the event freezes where it is."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if not event.running:
        raise RuleRefused("game_already_paused")
    now = timezone.now()
    event.clock_elapsed_s = event.game_time(now)
    event.clock_running_since = None
    event.save(update_fields=["clock_elapsed_s", "clock_running_since"])
    journal_write(event=event, kind="clock", what="paused", at=now, by=by)
    publish_characters_on_commit(_all_character_ids(event))
    return event


@transaction.atomic
def clock_resume(*, event: Event, by) -> Event:
    """Every countdown resumes where it was; timer tasks are queued again for the new
    wall-clock instants (those queued before the pause find nothing due and do nothing)."""
    from combat.services.schedule import fights_schedule_on_commit
    from health.services import deadlines_schedule_on_commit

    from .days import days_tasks_on_commit

    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.running:
        raise RuleRefused("game_not_paused")
    now = timezone.now()
    event.clock_running_since = now
    event.save(update_fields=["clock_running_since"])
    journal_write(event=event, kind="clock", what="resumed", at=now, by=by)
    deadlines_schedule_on_commit(event=event)
    fights_schedule_on_commit(event=event)
    days_tasks_on_commit(event=event)   # a dawn due during the pause runs now
    publish_characters_on_commit(_all_character_ids(event))
    return event


@transaction.atomic
def emergency_declare(*, event: Event, by, reason: str = "") -> tuple[Event, bool]:
    """Emergencia: anyone in the game stops it for a real-world reason. The clock pauses
    for everyone (unless the ruleset's `emergencia_pauses_all` option says otherwise) and
    the narrators are alerted; only they resume. Declared while already paused, it pauses
    nothing more but is still journalled and shown: it may be a second emergency.
    Returns the event and whether this call paused it."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    rules = event.rules()
    # Without the choice (rulesets/contracts.py), an Emergencia pauses everyone.
    pauses = event.running and (not rules.has("emergency_choice")
                                or rules.option("emergencia_pauses_all") is not False)
    now = timezone.now()
    entry = journal_write(event=event, kind="emergency", what="declared", at=now, by=by,
                          detail={"reason": reason, "paused": pauses})
    if pauses:
        event = clock_pause(event=event, by=by)
    character = Character.objects.filter(event=event, user=by).values("pk", "name").first()
    publish_narrators_on_commit(event.pk, {"type": "emergency.message", "emergency": {
        "journal": entry.pk, "at": now.isoformat(), "who": entry.actor_label,
        "character": {"id": character["pk"], "name": character["name"]} if character else None,
        "reason": reason, "paused": pauses, "running": event.running}})
    return event, pauses


@transaction.atomic
def character_psych_set(*, character: Character, psych: dict, by) -> Character:
    """Narrators change the psychological traits (A16: integers, no automation); the
    player reads them on their sheet."""
    from health.services import snapshots_changed

    event = character.event
    rules = event.rules()
    traits = list(rules.option("psych_traits") or []) if rules.has("psych_traits") else []
    unknown = sorted(set(psych) - set(traits))
    if unknown:
        raise RuleRefused("bad_input", detail=f"unknown trait(s) {', '.join(unknown)}; "
                                              f"the traits are {', '.join(traits)}")
    if any(isinstance(v, bool) or not isinstance(v, int) or not -100 <= v <= 100
           for v in psych.values()):
        raise RuleRefused("bad_input", detail="each trait is a whole number from -100 to 100")
    character = Character.objects.select_for_update().get(pk=character.pk)
    before = dict(character.sheet.get("psych") or {})
    character.sheet = {**character.sheet, "psych": {**before, **psych}}
    character.save(update_fields=["sheet"])
    journal_write(event=event, kind="sheet", what="psych", at=timezone.now(), by=by,
                  character=character, detail={"before": before, "after": character.sheet["psych"]})
    snapshots_changed(character_ids=[character.pk])
    return character
