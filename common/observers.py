"""Declared reactions to a change, so that the app that makes the change never names the
apps that care about it.

The app that owns a change declares one `Observers` per kind of change (which arguments
its reactions receive) in its `observers.py`; an app that cares registers a reaction in
its `AppConfig.ready()`. The reactions run inside the service's transaction, in the order
the apps are installed: a reaction that talks to the outside world does so on commit.
"""
from __future__ import annotations

from collections.abc import Callable


class Observers:
    def __init__(self, name: str, *, arguments: tuple[str, ...]):
        self.name = name
        self.arguments = frozenset(arguments)
        self._reactions: list[Callable] = []

    def register(self, reaction: Callable) -> Callable:
        """Add a reaction (once: a second `ready()` in the same process adds nothing)."""
        if reaction not in self._reactions:
            self._reactions.append(reaction)
        return reaction

    def notify(self, **arguments) -> None:
        if set(arguments) != self.arguments:
            raise TypeError(f"{self.name} is notified with {sorted(self.arguments)}, "
                            f"not {sorted(arguments)}")
        for reaction in self._reactions:
            reaction(**arguments)

    @property
    def reactions(self) -> tuple[Callable, ...]:
        return tuple(self._reactions)


# A login session was deleted (a logout, a new login on that phone, a flush), named by its
# key (common/sessions.py). Expired sessions are not announced: whatever is kept for a
# session must not outlive it.
session_ended = Observers("session_ended", arguments=("session_key",))
