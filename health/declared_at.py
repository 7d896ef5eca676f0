"""When a declaration happened: the instant of the player's tap, not of its arrival.

A phone in a dead zone keeps what the player declares in its outbox and sends it when the
signal returns, with the instant of the tap on the server's clock (`tapped_at`: the phone's
own clock corrected by the offset it measured). A wound declared offline then starts its
countdown at the tap, so a player who waited in a dead zone gets no extra time.

- A tap within `TAP_TOLERANCE_S` of its arrival is an ordinary declaration, applied when it
  arrives: a phone's offset is only as good as its round trips, and seconds of network do
  not rewrite the game.
- A tap later than that in the future is a phone whose clock is wrong: refused
  (`tap_in_future`), since the server cannot apply what has not happened.
- An earlier tap is applied at its instant, but never further back than the ruleset's
  option `late_declaration_max_s` (default 30 min): an older tap is applied as of that
  bound (clamped, not refused: the wound did happen, and what it costs the player is
  bounded). Its game time is what the game clock read then (a pause since does not shift
  it: players.selectors.event_game_time_at). A player's tap while the game was paused is
  refused (`tap_while_paused`), as it would have been online.

- A late tap is bounded by what the server already knows (`require_after_known`): it is
  never judged earlier than the character's latest recorded change (a declaration, a
  treatment, an effect on its state, a narrator's correction or sheet edit), its
  creation, or the last contact of the phone that proves its outbox held nothing older
  (live/phone_contact.py). An older tap is refused (`tap_before_recorded`), not
  clamped: what someone recorded meanwhile is never rewound, and a recorded hit's
  deadline is never replaced by an earlier one.
- A tap after all that is judged on the character's state at the tap (`state_at`): the
  timers that expired on their own since the tap (recorded by the sweeper, or when an
  earlier late tap arrived) are counted again from it, as if it had arrived at once. A
  first aid confirmed in a dead zone before the coma began thus finds its patient
  Wounded, even if the coma was recorded before the confirmation reached the server.

Without the `late_declarations` feature (rulesets/contracts.py), a ruleset's declarations
are applied when they arrive.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_noop

from common.i18n import Labels, label
from live.phone_contact import phone_contact_proven
from players.models import Character, Event, JournalEntry
from players.selectors import event_game_time_at
from rulesets import DECLARED, CharacterState, RuleRefused

TAP_TOLERANCE_S = 5.0

CLAMPED = gettext_noop(
    "Declared {late} min before it reached the server: applied as of {bound} min before, "
    "the most this game allows.")


def _clock_text(at: datetime) -> str:
    """An instant as a player reads it on their watch: the server's timezone, named."""
    local = timezone.localtime(at)
    return f"{local:%H:%M:%S} {local.tzname()}"


@dataclass(frozen=True)
class DeclaredAt:
    received_at: datetime
    applied_at: datetime          # the tap, or the bound for an older tap
    game_s: float                 # the game clock at applied_at
    tapped_at: datetime | None = None   # None: applied when it arrived
    clamped: bool = False
    bound_s: float | None = None        # the ruleset's late_declaration_max_s

    @property
    def late(self) -> bool:
        return self.tapped_at is not None

    def journal(self) -> dict:
        """What the journal line keeps besides its own `at` (the arrival)."""
        if not self.late:
            return {}
        return {"tapped_at": self.tapped_at.isoformat(), "received_at": self.received_at.isoformat(),
                "applied_at": self.applied_at.isoformat(), "clamped": self.clamped}

    def event(self) -> dict:
        """What the answer tells the phone: when it counted, and why not at the tap."""
        late_s = (self.received_at - self.tapped_at).total_seconds()
        return {"kind": "declared_at", "tapped_at": self.tapped_at.isoformat(),
                "applied_at": self.applied_at.isoformat(),
                "received_at": self.received_at.isoformat(), "game_s": round(self.game_s, 3),
                "clamped": self.clamped,
                "text": label(CLAMPED, late=str(int(late_s // 60)), bound=str(int(self.bound_s // 60)))
                if self.clamped else None}


def declared_instant(*, event: Event, tapped_at: datetime | None, now: datetime,
                     as_narrator: bool) -> DeclaredAt:
    """The instant a declaration counts at (see the module's docstring)."""
    rules = event.rules()
    if tapped_at is None or not rules.has("late_declarations"):
        return DeclaredAt(received_at=now, applied_at=now, game_s=event.game_time(now))
    if tapped_at > now + timedelta(seconds=TAP_TOLERANCE_S):
        raise RuleRefused("tap_in_future", tapped=_clock_text(tapped_at), now=_clock_text(now))
    if tapped_at >= now - timedelta(seconds=TAP_TOLERANCE_S):
        return DeclaredAt(received_at=now, applied_at=now, game_s=event.game_time(now))
    _, running = event_game_time_at(event, tapped_at)
    if not running and not as_narrator:
        raise RuleRefused("tap_while_paused", tapped=_clock_text(tapped_at))
    bound_s = float(rules.option("late_declaration_max_s"))
    applied = max(tapped_at, now - timedelta(seconds=bound_s))
    game_s, _ = event_game_time_at(event, applied)
    return DeclaredAt(received_at=now, applied_at=applied, game_s=game_s, tapped_at=tapped_at,
                      clamped=applied > tapped_at, bound_s=bound_s)


# What a refused tap came before (`tap_before_recorded`'s {what}).
BEFORE = Labels({
    "created": gettext_noop("this character was created"),
    "change": gettext_noop("the last change recorded for this character"),
    "contact": gettext_noop("this phone's last contact with nothing waiting to send"),
})
# Lines that are not a recorded change: a timer's expiry follows from the changes before
# it and is counted again from a later tap (`state_at`).
_CHANGES = Q(after__isnull=False) | Q(kind__in=["correction", "sheet"])


def _counted_at(line: JournalEntry) -> datetime:
    """When a journal line counts: its own tap for a late declaration, else its arrival."""
    applied = (line.detail or {}).get("applied_at")
    return parse_datetime(applied) if applied else line.at


def _last_change(character_id: int) -> JournalEntry | None:
    return (JournalEntry.objects.filter(character_id=character_id).exclude(kind="timer")
            .filter(_CHANGES).order_by("-id").first())


def require_after_known(declared: DeclaredAt, *, character: Character,
                        phone: str | None) -> int | None:
    """Refuse a late tap older than what the server already knows of this character and
    this phone (see the module's docstring). Call it with the character's row locked.
    Returns the id of the latest recorded change (None: none yet), for `state_at`."""
    if not declared.late:
        return None
    line = _last_change(character.pk)
    known = []    # (the earliest tap it allows, what it is, its instant)
    if line is not None:   # its creation is the first line of every character
        created = (line.kind, line.what) == ("character", "created")
        known.append((_counted_at(line), "created" if created else "change", _counted_at(line)))
    contact = phone_contact_proven(phone)
    if contact is not None:
        # The request that proved it was sent a moment before it arrived.
        known.append((contact - timedelta(seconds=TAP_TOLERANCE_S), "contact", contact))
    bound, what, at = max(known, default=(None, None, None))
    if bound is not None and declared.tapped_at < bound:
        raise RuleRefused("tap_before_recorded", tapped=_clock_text(declared.tapped_at),
                          at=_clock_text(at), what=BEFORE[what])
    return line.pk if line is not None else None


def state_at(*, current: CharacterState, rules, sheet: dict, character_id: int,
             since_line: int | None, game_s: float,
             seen_by: str = DECLARED) -> tuple[CharacterState, list[int]]:
    """The character's state at `game_s`, for a late tap after its latest recorded change
    (line `since_line`): the current state, unless timers recorded since expired at or
    after the tap; then the state before the first of them, advanced to the tap. Returns
    the state and the ids of the timer lines it counts again."""
    later = JournalEntry.objects.filter(character_id=character_id, kind="timer",
                                        game_s__gte=game_s)
    if since_line is not None:
        later = later.filter(id__gt=since_line)
    later = list(later.order_by("id").values_list("id", "before"))
    if not later:
        return current, []
    before = CharacterState.from_json(later[0][1])
    return rules.advance(before, sheet, game_s, seen_by=seen_by).state, [pk for pk, _ in later]
