"""What other apps may observe of events and characters (common/observers.py)."""
from common.observers import Observers

# Characters were created (one, or a whole roster at once): their health and anything else
# they start with, for all of them together.
characters_created = Observers("characters_created", arguments=("characters",))

# Something of these characters' own rows changed (their sheet): every snapshot of them
# moves on.
characters_changed = Observers("characters_changed", arguments=("character_ids",))

# The game clock runs again (schedule/services/clock.py): what waited on game time is queued again
# for its new wall-clock instant.
clock_resumed = Observers("clock_resumed", arguments=("event",))

# A phone reported its self-check (players/readiness_services.py): the event's narrators
# see it at once. `row` is players.readiness_selectors.readiness_row of it.
phone_readiness_reported = Observers("phone_readiness_reported", arguments=("event_id", "row"))

# What these users may reach may have shrunk (a lost phone's login ended, a role removed,
# a person erased, an account deactivated): the open sockets of their phones check their
# access again at once and close when it is gone. Notified inside the transaction; a
# reaction that talks to the phones does so on commit.
access_revoked = Observers("access_revoked", arguments=("user_ids",))
