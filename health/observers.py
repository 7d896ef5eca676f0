"""What other apps may observe of a character's health (common/observers.py).

A heal in progress ends when its medic or patient changes state; a duel ends when one
side is hit; a phone subscribed to Web Push hears of the change: those apps register
here, so that health names none of them."""
from typing import NamedTuple

from common.observers import Observers


class Recorded(NamedTuple):
    """One recorded change: the row as it is now, `before` the state as it was (core
    JSON), `action` what changed it."""
    health: object
    before: dict
    action: str


# Every recorded state change (a declared action, a rule's outcome, a timer, a treatment),
# as a list: a burst of deadlines is one notification, so that each reaction reads what it
# needs for the whole batch in one query instead of one per character.
states_recorded = Observers("states_recorded", arguments=("changes", "event", "now", "by"))

# A player or a narrator declared an action on the character (not a timer, not a rule).
action_declared = Observers("action_declared",
                            arguments=("character", "event", "action", "now", "by"))
