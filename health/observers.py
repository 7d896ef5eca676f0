"""What other apps may observe of a character's health (common/observers.py).

A heal in progress ends when its medic or patient changes state; a duel ends when one
side is hit; a phone subscribed to Web Push hears of the change: those apps register
here, so that health names none of them."""
from common.observers import Observers

# Every recorded state change (a declared action, a rule's outcome, a timer, a treatment):
# `before` is the state as it was (core JSON), `action` what changed it.
state_recorded = Observers("state_recorded",
                           arguments=("health", "event", "before", "action", "now", "by"))

# A player or a narrator declared an action on the character (not a timer, not a rule).
action_declared = Observers("action_declared",
                            arguments=("character", "event", "action", "now", "by"))
