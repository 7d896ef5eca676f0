"""Who may see or do what in an event."""
from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from rest_framework.exceptions import NotFound, PermissionDenied

from .models import Character, Event, JournalEntry, LoginToken, Membership
from .tokens import login_token_hashes


def is_narrator(user, event: Event) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return Membership.objects.filter(event=event, user=user, role=Membership.NARRATOR).exists()


def is_safety_member(user, event: Event) -> bool:
    """Whether the user is on the event's safety team: they answer the calls for help and
    keep the safety board (safety/selectors.py), and see nothing of the game."""
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(event=event, user=user, role=Membership.SAFETY).exists()


def event_for_narrator(user, event_id: int) -> Event:
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not is_narrator(user, event):
        raise NotFound()
    return event


def event_for_member(user, event_id: int) -> Event:
    """The event if the user plays or narrates in it (Emergencia is anyone's call)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not user.is_authenticated:
        raise NotFound()
    if not (user.is_superuser or Membership.objects.filter(event=event, user=user).exists()):
        raise NotFound()
    return event


def character_visible(user, character_id: int) -> tuple[Character, bool]:
    """The character if the user plays it or narrates its event, with whether they act as
    a narrator. Anything else is a 404: a player cannot even learn another id exists."""
    character = Character.objects.select_related("event").filter(pk=character_id).first()
    return character, character_seen_as_narrator(user, character)


def character_seen_as_narrator(user, character: Character | None) -> bool:
    """Whether the user sees this already loaded character as its narrator (False: as its
    player); a 404 when they may not see it at all."""
    if character is None:
        raise NotFound()
    if character.user_id == user.pk:
        return False
    if is_narrator(user, character.event):
        return True
    raise NotFound()


def own_character(user, character_id: int) -> Character:
    character, as_narrator = character_visible(user, character_id)
    if as_narrator and character.user_id != user.pk:
        raise PermissionDenied()
    return character


def user_events(user) -> list[dict]:
    memberships = Membership.objects.filter(user=user).select_related("event")
    events = {}
    for m in memberships:
        events.setdefault(m.event_id, {"id": m.event_id, "name": m.event.name,
                                       "ruleset": m.event.ruleset,
                                       "language": m.event.language, "display": m.event.display,
                                       "roles": []})
        events[m.event_id]["roles"].append(m.role)
    if user.is_superuser:
        for event in Event.objects.exclude(pk__in=events.keys()):
            events[event.pk] = {"id": event.pk, "name": event.name, "ruleset": event.ruleset,
                                "language": event.language, "display": event.display,
                                "roles": [Membership.NARRATOR]}
    return list(events.values())


def journal_entries(event: Event, *, after_id: int = 0, character_id: int | None = None,
                    limit: int = 500, last: int | None = None):
    rows = JournalEntry.objects.filter(event=event, id__gt=after_id).select_related("character")
    if character_id:  # with what reached everyone (an effect pushed to all)
        rows = rows.filter(Q(character_id=character_id) | Q(character=None, kind="effect"))
    if last:
        newest = list(rows.order_by("-id")[:min(last, limit)])
        return newest[::-1]
    return rows.order_by("id")[:limit]


def clean_code(code: str) -> str | None:
    """A printed code (a character's, an object's) as stored, from what a person typed: in
    any case, with the spaces or dashes they put in to keep their place ("k7p-q2m"). None
    when the rest is not letters and digits: anything else (a NUL breaks PostgreSQL)
    matches nothing."""
    wanted = "".join((code or "").split()).replace("-", "").upper()
    return wanted if wanted.isascii() and wanted.isalnum() else None


def character_by_code(event_id: int, code: str) -> Character:
    """The character of the event whose printed code (under its QR) this is."""
    from rulesets import RuleRefused
    wanted = clean_code(code)
    found = (Character.objects.select_related("event").filter(event_id=event_id, code=wanted)
             .first() if wanted else None)
    if found is None:
        raise RuleRefused("unknown_code", code=code)
    return found


def event_options(event: Event) -> list[dict]:
    """Each option of the event's ruleset: its value here, the default, the choices."""
    ruleset = event.rules().ruleset
    values = event.rules().options
    return [{"key": key, "value": values[key], "default": default,
             "changed": values[key] != default, "choices": ruleset.option_choices.get(key)}
            for key, default in ruleset.options.items()]


def clock_snapshot(event: Event, now: datetime) -> dict:
    """The game clock, and what every phone shows of the games of the day: the game being
    played and the next one announced (schedule/services/games.py keeps them on the event row, so
    this costs no query)."""
    announced = event.announcement or {}
    return {"running": event.running, "game_time_s": round(event.game_time(now), 3),
            "game": announced.get("game"), "next_game": announced.get("next_game")}


def event_game_time_at(event: Event, at: datetime) -> tuple[float, bool]:
    """What the game clock read at a past wall instant, and whether it ran then.

    `Event.game_time` projects the clock as it runs now; a pause or a resume since `at`
    would shift that projection. The clock's journal lines (every pause and resume writes
    one, with its game time) say what the clock did: the first one after `at` is a pause
    (it ran at `at`, and read that pause's game time minus the seconds in between) or a
    resume (it was paused at `at`, at that resume's game time). Without any, the clock has
    not changed since `at`."""
    line = (JournalEntry.objects.filter(event=event, kind="clock", at__gt=at)
            .order_by("at", "id").values("what", "at", "game_s").first())
    if line is None:
        if event.clock_running_since is None or event.clock_running_since > at:
            return event.clock_elapsed_s, False
        return event.game_time(at), True
    if line["what"] == "paused":
        return line["game_s"] - (line["at"] - at).total_seconds(), True
    return line["game_s"], False


def login_token_language(raw: str) -> str | None:
    """The language of the event a login link is for, to greet in it; None if unknown.
    Reads only: the link stays usable."""
    token = (LoginToken.objects.select_related("event")
             .filter(token_hash__in=login_token_hashes(raw)).first())
    return token.event.language if token else None
