"""The one rule for what comes first at one game instant.

Several things may fall on the same game second: a timer's deadline, an action declared
then, a treatment or a heal whose duration ends then. Every service and every read asks
this module, so that the phone, the declaration and the medic see the same state:

1. what was running before the instant and ends at it (a treatment or a heal completing,
   a duel, a union or an acharnement resolved): `ENDING`. It comes before the timers due
   at that instant: "doit se faire soigner dans les 15mn" (gn_fr L18-19) is in time at
   15:00 exactly (spec A8, completion inclusive);
2. the timers due at that instant expire;
3. what is declared, started or read at the instant (a hit, "je demande un médecin", a
   treatment or a heal started, a sanction, a dawn, a snapshot): `DECLARED`. It sees the
   state after those expiries: "Après le compte de ces 10 secondes, un coéquipier pourra
   venir tenter de le soigner" (airsoft_rats L16, L19): at 10 s the count is over, and
   what the phone shows at that instant is what may be declared at it.

A window that something may still answer "within" (a union's three seconds: "si
personne n'intervient dans les 3 secondes pour rééquilibrer la balance", gn_fr L28)
includes its last instant: an answer declared then comes before the window's end
(`within`), as a treatment completing at a deadline is in time.
"""
# Rule codes: docs/rules/gn_fr-coverage.md; their families: docs/glossary.md.
from __future__ import annotations

ENDING = "ending"        # the end of something that was running before the instant
DECLARED = "declared"    # declared, started or read at the instant

ORDERS = (ENDING, DECLARED)


def expired(deadline: float, at: float, *, seen_by: str) -> bool:
    """Whether a timer due at `deadline` has expired for what happens at `at`."""
    if seen_by not in ORDERS:
        raise ValueError(f"seen_by must be one of {', '.join(ORDERS)}, not {seen_by!r}")
    return deadline < at or (deadline == at and seen_by == DECLARED)


def within(window_end: float, at: float) -> bool:
    """Whether something declared at `at` is still within a window ending at `window_end`
    (its last instant included)."""
    return at <= window_end
