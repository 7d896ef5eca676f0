"""Reads of the schedule: the games of an airsoft day as the organisers and the phones
see them, and the scheduled days with the wounds left untreated at day end."""
from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce, Greatest
from rest_framework.exceptions import NotFound

from players.models import Event
from players.selectors import is_narrator
from rulesets.loader import Ruleset
from schedule.models import Game, GameDay
# The day reads stay beside the day services that publish them at day end; the views
# read them from here like every other read of the schedule.
from schedule.services.days import day_view, days_view, untreated_wounds

__all__ = ["SCENARIO_OPTIONS", "announcement_of", "day_options", "day_view", "days_view",
           "game_for_narrator", "game_status", "game_view", "games_view", "last_day_instant",
           "last_game_instant", "untreated_wounds"]

# What a player needs to know of any game (spec §3.1, Appendix A "scenario"), shown even
# when the scenario keeps the default; any other option it changes is shown as well.
SCENARIO_OPTIONS = ("medic_mode", "medics", "respawn_policy", "ammo_limit_per_replica",
                    "max_heals_per_player")


def day_options(event: Event) -> dict:
    """The options every game's options go on top of: the event's before the day's first
    game started (a game's options last for that game only)."""
    started = (event.games.filter(started_at__isnull=False).order_by("-number")
               .values_list("day_options", flat=True).first())
    return dict(started) if started is not None else dict(event.options)


def game_status(game: Game) -> str:
    if game.ended_at is not None:
        return "ended"
    return "playing" if game.started_at is not None else "announced"


def announcement_of(game: Game, ruleset: Ruleset, day: dict) -> dict:
    """What every phone shows of a game: its scenario, start time, the scenario options a
    player needs (medic mode, respawn...) as they will be in play (`day`: the day's
    options), and any other option the scenario changes."""
    effective = ruleset.merged_options({**day, **game.options})
    shown = {key: effective[key] for key in SCENARIO_OPTIONS if key in effective}
    return {"id": game.pk, "number": game.number, "scenario": game.scenario,
            "description": game.description, "start_at": game.start_at.isoformat(),
            "started_at": game.started_at.isoformat() if game.started_at else None,
            "status": game_status(game), **shown, **game.options,
            "changed": sorted(game.options)}


def game_view(game: Game) -> dict:
    def iso(at):
        return at.isoformat() if at else None
    return {"id": game.pk, "event": game.event_id, "number": game.number,
            "scenario": game.scenario, "description": game.description,
            "options": game.options, "status": game_status(game),
            "start_at": iso(game.start_at), "announced_at": iso(game.announced_at),
            "started_at": iso(game.started_at), "ended_at": iso(game.ended_at),
            "characters_reset": game.characters_reset}


def games_view(event: Event) -> dict:
    games = list(event.games.all())
    current = next((g for g in games if game_status(g) == "playing"), None)
    coming = next((g for g in games if game_status(g) == "announced"), None)
    return {"event": event.pk, "games": [game_view(g) for g in games],
            "current": game_view(current) if current else None,
            "next": game_view(coming) if coming else None,
            "announcement": {"game": (event.announcement or {}).get("game"),
                             "next_game": (event.announcement or {}).get("next_game")}}


def game_for_narrator(user, game_id: int) -> Game:
    """The game for its event's organisers; a 404 for anyone else."""
    game = Game.objects.select_related("event").filter(pk=game_id).first()
    if game is None or not is_narrator(user, game.event):
        raise NotFound()
    return game


def last_day_instant():
    """When an event's latest dawn or day end is (or was) due: an event with a day still
    to come has not ended, whatever its journal says (players/privacy_selectors.py)."""
    return Subquery(GameDay.objects.filter(event=OuterRef("pk")).order_by("-due_at")
                    .values("due_at")[:1])


def last_game_instant():
    """When an event's latest game starts (as announced) or ended, whichever is later."""
    latest = Greatest("start_at", Coalesce("ended_at", "start_at"))
    return Subquery(Game.objects.filter(event=OuterRef("pk")).annotate(latest=latest)
                    .order_by("-latest").values("latest")[:1])
