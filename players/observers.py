"""What other apps may observe of events and characters (common/observers.py)."""
from common.observers import Observers

# A character was created: its health and anything else it starts with.
character_created = Observers("character_created", arguments=("character",))

# Something of these characters' own rows changed (their sheet): every snapshot of them
# moves on.
characters_changed = Observers("characters_changed", arguments=("character_ids",))

# The game clock runs again (schedule/services/clock.py): what waited on game time is queued again
# for its new wall-clock instant.
clock_resumed = Observers("clock_resumed", arguments=("event",))
