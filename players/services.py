"""Writes for events, characters, logins, the game clock and the journal."""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from rulesets import RuleRefused, RulesetError, get_ruleset
from rulesets.sheet import sheet_check

from common.ratelimit import attempt_limited

from . import observers
from .models import Character, Event, JournalEntry, LoginToken, Membership, Team
from .tokens import login_token_hashes


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
    line = journal_line(event=event, kind=kind, what=what, at=at, by=by, character=character,
                        before=before, after=after, detail=detail, game_s=game_s)
    line.save(force_insert=True)
    return line


def journal_line(*, event: Event, kind: str, what: str, at: datetime, by=None,
                 character: Character | None = None, before=None, after=None,
                 detail: dict | None = None, game_s: float | None = None) -> JournalEntry:
    """A journal line not yet written, as `journal_write` writes it: a batch writes many
    in one insert (JournalEntry.objects.bulk_create)."""
    return JournalEntry(
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
def membership_grant(*, event: Event, user, role: str) -> Membership:
    """`user` may act in `event` as `role` (a zombie of the race, a referee); granted
    twice, it is the same membership."""
    return Membership.objects.get_or_create(event=event, user=user, role=role)[0]


def event_clock_store(*, event: Event, elapsed_s: float, running_since) -> None:
    """The game clock's two fields (schedule/clock.py decides; the caller holds the row
    lock): game seconds played before `running_since`, and since when it runs (None:
    paused)."""
    event.clock_elapsed_s, event.clock_running_since = elapsed_s, running_since
    event.save(update_fields=["clock_elapsed_s", "clock_running_since"])


def event_snapshot_version_move(*, event: Event) -> int:
    """Every character's snapshot sequence number moves by one (a message to everyone);
    the new shared part, also set on `event`."""
    Event.objects.filter(pk=event.pk).update(snapshot_version=F("snapshot_version") + 1)
    event.snapshot_version = Event.objects.values_list("snapshot_version", flat=True).get(pk=event.pk)
    return event.snapshot_version


def event_options_store(*, event: Event, options: dict) -> None:
    """The event's options as a game sets them (schedule/games.py checks them first)."""
    event.options = options
    event.save(update_fields=["options"])


def event_announcement_store(*, event: Event, announcement: dict) -> None:
    """What every phone shows of the day's games (kept on the row: no query per snapshot)."""
    event.announcement = announcement
    event.save(update_fields=["announcement"])


def character_kit_spend(*, character: Character, kit: str) -> None:
    """One kit of `kit` used up (a treatment completed); the caller holds the row lock."""
    character.kits = {**character.kits, kit: int(character.kits.get(kit, 0)) - 1}
    character.save(update_fields=["kits"])


def team_get_or_create(*, event: Event, name: str) -> Team:
    return Team.objects.get_or_create(event=event, name=name)[0]


@transaction.atomic
def character_create(*, event: Event, name: str, sheet: dict | None = None,
                     kits: dict | None = None, team: Team | None = None, by=None) -> Character:
    """A character, its player account (no password: players log in by link) and its
    initial health."""
    return characters_create(event=event, by=by, rows=[
        {"name": name, "sheet": sheet or {}, "kits": kits or {}, "team": team}])[0]


@transaction.atomic
def characters_create(*, event: Event, rows: list[dict], by=None) -> list[Character]:
    """Characters from rows of {name, sheet, kits, team} (a roster), each with what
    `character_create` gives one, in a few inserts whatever their number."""
    rules = event.rules()
    for row in rows:
        sheet_check(rules, row["sheet"], row["kits"])
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"e{event.pk}-{secrets.token_hex(6)}", password=make_password(None))
         for _ in rows], batch_size=1000)
    characters = Character.objects.bulk_create(
        [Character(event=event, name=row["name"], sheet=row["sheet"], kits=row["kits"],
                   team=row["team"], user=user) for row, user in zip(rows, users)], batch_size=1000)
    Membership.objects.bulk_create([Membership(event=event, user=user, role=Membership.PLAYER)
                                    for user in users], batch_size=1000)
    observers.characters_created.notify(characters=characters)  # their health, at least
    label, now = actor_label(by, event), timezone.now()
    JournalEntry.objects.bulk_create(
        (JournalEntry(event=event, character=c, actor=by, actor_label=label, kind="character",
                      what="created", at=now, game_s=event.game_time(now),
                      after={"sheet": c.sheet, "kits": c.kits}) for c in characters), batch_size=1000)
    return characters


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic
def login_token_issue(*, event: Event, user, by=None) -> str:
    """A new single-use login secret for `user`; only its hash is stored. The person's
    older links stop working: a reprinted sheet or a new link replaces a lost one."""
    raw = secrets.token_urlsafe(24)
    now = timezone.now()
    # Older one-time links only: the printed card's code stays (players/login_cards.py).
    LoginToken.objects.filter(user=user, kind=LoginToken.LINK, used_at__isnull=True,
                              expires_at__gt=now).update(expires_at=now)
    LoginToken.objects.create(user=user, event=event, token_hash=_hash(raw),
                              expires_at=now + timedelta(seconds=settings.LOGIN_TOKEN_TTL_S))
    journal_write(event=event, kind="login", what="link_issued", at=now, by=by,
                  detail={"user": user.get_username()})
    return raw


@transaction.atomic
def login_token_redeem(*, raw: str):
    """A one-time link logs in once before it expires; a card code logs in every time
    until it is replaced (its `used_at` is when it was last used)."""
    now = timezone.now()
    token = (LoginToken.objects.select_for_update().select_related("user", "event")
             .filter(token_hash__in=login_token_hashes(raw)).first())
    if (token is None or not token.user.is_active  # an organiser deactivated the account
            or (token.kind == LoginToken.LINK and token.used_at is not None)
            or (token.expires_at is not None and token.expires_at <= now)):
        raise RuleRefused("invalid_login")
    token.used_at = now
    token.save(update_fields=["used_at"])
    journal_write(event=token.event, kind="login", what="link_used", at=now, by=token.user)
    return token.user, token.event


def login_token_redeem_limited(*, raw: str, ip: str):
    """`login_token_redeem`, refused with 429 once the address has failed too often."""
    return attempt_limited(ip=ip, attempt=lambda: login_token_redeem(raw=raw))


@transaction.atomic
def character_psych_set(*, character: Character, psych: dict, by) -> Character:
    """Narrators change the psychological traits (A16: integers, no automation); the
    player reads them on their sheet."""
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
    observers.characters_changed.notify(character_ids=[character.pk])
    return character
