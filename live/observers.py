"""What other apps may observe of the live channel (common/observers.py)."""
from common.observers import Observers

# These players' phones were in touch (a socket connected or sent its heartbeat; the
# connects of a second come together, live/contacts.py): real-world safety's "last seen"
# (safety/contact.py). Called in a worker thread, never on the loop.
phones_seen = Observers("phones_seen", arguments=("user_ids",))
