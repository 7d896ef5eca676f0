"""Django's database sessions, read with one plain statement.

Every websocket connect and every API call reads its session. Django's store builds and
compiles an ORM query for it each time (about 1 ms of CPU, more than running it); the
statement never changes, so it is written once here. Everything else (saving, expiry,
cycling keys, the table) is Django's own store; a deleted session is announced."""
from __future__ import annotations

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from common.observers import session_ended


class SessionStore(db.SessionStore):
    expires_at = None       # its row's expiry, once read

    def _get_session_from_db(self):
        if not self.session_key:            # a malformed key is None already (SessionBase)
            return None
        connection = connections[router.db_for_read(self.model)]
        table = connection.ops.quote_name(self.model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT session_data, expire_date FROM {table} "
                           "WHERE session_key = %s AND expire_date > %s",
                           [self.session_key, timezone.now()])
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        self.expires_at = row[1]
        return self.model(session_key=self.session_key, session_data=row[0], expire_date=row[1])

    def delete(self, session_key=None):
        """Django's delete, then those who keep something for this session hear of it
        (a logout, a new login on the same phone, a flush)."""
        ended = session_key or self.session_key
        super().delete(session_key)
        if ended:
            session_ended.notify(session_key=ended)
