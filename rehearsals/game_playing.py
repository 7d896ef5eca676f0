"""Playing the game steps of a rehearsal (docs/rehearse.md, "Game stops and the games of
a day") through the services the API calls: a player's game stop (`emergency_declare`),
and the games of an airsoft day (`game_announce`, `game_start`, `game_end`).
"""
from __future__ import annotations

from datetime import timedelta

from schedule.models import Game
from schedule.services.clock import emergency_declare
from schedule.services.games import game_announce, game_end, game_start

from rehearsals.script import Step, StepFailed


class GameSteps:
    """The game steps of runner._Player."""

    def _stop_game(self, step: Step) -> str:
        _, paused = emergency_declare(event=self.event(), by=self.user(step.by),
                                      reason=step.item["reason"])
        return "the game is stopped" if paused else "already stopped: journalled"

    def _announce_game(self, step: Step) -> str:
        spec = step.item
        game = game_announce(event=self.event(), scenario=spec["scenario"],
                             description=spec["description"], options=spec["options"],
                             start_at=self.start + timedelta(seconds=spec["start_at_s"]),
                             by=self.narrator)
        return f"game {game.number}"

    def _start_game(self, step: Step) -> str:
        game = self.game(started=False)
        game = game_start(game=game, by=self.narrator)
        return f"game {game.number}, {game.characters_reset} player(s) to their spawn"

    def _end_game(self, step: Step) -> str:
        game = game_end(game=self.game(started=True), by=self.narrator)
        return f"game {game.number}"

    def game(self, *, started: bool) -> Game:
        """The game announced (not started yet), or the latest one started; failing that
        the latest game, so that starting or ending it twice meets the service's refusal."""
        games = Game.objects.filter(event_id=self.event_id).order_by("-number")
        game = games.filter(started_at__isnull=not started).first() or games.first()
        if game is None:
            raise StepFailed(["no game was announced (announce_game)"])
        return game
