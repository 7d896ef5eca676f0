"""What other apps may observe of the live channel (common/observers.py)."""
from common.observers import Observers

# A player's phone was in touch (its socket connected, or sent its heartbeat): real-world
# safety's "last seen" (safety/contact.py). Called in a worker thread, never on the loop.
phone_seen = Observers("phone_seen", arguments=("user_id",))
