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

Without the `late_declarations` feature (rulesets/contracts.py), a ruleset's declarations
are applied when they arrive.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext_noop

from common.i18n import label
from players.models import Event
from players.selectors import event_game_time_at
from rulesets import RuleRefused

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
