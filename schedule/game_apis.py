"""The games of an airsoft day over HTTP (schedule/services/games.py): organisers announce,
start and end them; anyone in the event reads them. A stop during a game is the clock's pause
(`POST /api/events/<id>/clock/`) or anyone's Emergencia (`POST /api/events/<id>/emergency/`)."""
from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from players.selectors import clock_snapshot

from schedule import selectors
from schedule.answers import GameChangedAnswer, GamesAnswer
from schedule.services import games
from common.http import answer
from schedule.day_apis import AwareDateTimeField
from common.idempotency import idempotent
from players.models import Event
from players.selectors import event_for_member, event_for_narrator


class EventGamesApi(APIView):
    class AnnounceInput(serializers.Serializer):
        scenario = serializers.CharField(max_length=200)
        description = serializers.CharField(max_length=4000, required=False, allow_blank=True,
                                            default="")
        options = serializers.DictField(required=False, default=dict)
        start_at = AwareDateTimeField()

    @extend_schema(responses=GamesAnswer, summary="The games of the day (anyone in the event): each game, the one being played, the next one announced")
    def get(self, request, event_id):
        event = event_for_member(request.user, event_id)
        return answer(request, selectors.games_view(event))

    @extend_schema(responses={201: GameChangedAnswer}, request=AnnounceInput, summary="Announce the next game (organisers): scenario, options, start time; every phone shows it. Announced again before it starts, the same game is revised. Idempotency-Key header.")
    def post(self, request, event_id):
        event = event_for_narrator(request.user, event_id)
        data = self.AnnounceInput(data=request.data)
        data.is_valid(raise_exception=True)

        def run():
            game = games.game_announce(event=event, by=request.user, **data.validated_data)
            return _game_answer(request, game, status=201)
        return idempotent(request, run)


class GameStartApi(APIView):
    @extend_schema(responses=GameChangedAnswer, request=None, summary="Start an announced game (organisers): its options apply, the clock runs, every player goes back to spawn. Idempotency-Key header.")
    def post(self, request, game_id):
        game = selectors.game_for_narrator(request.user, game_id)

        def run():
            return _game_answer(request, games.game_start(game=game, by=request.user))
        return idempotent(request, run)


class GameEndApi(APIView):
    @extend_schema(responses=GameChangedAnswer, request=None, summary="End the game being played (organisers): the clock pauses and phones stop showing it. Idempotency-Key header.")
    def post(self, request, game_id):
        game = selectors.game_for_narrator(request.user, game_id)

        def run():
            return _game_answer(request, games.game_end(game=game, by=request.user))
        return idempotent(request, run)


def _game_answer(request, game, status=200):
    event = Event.objects.get(pk=game.event_id)
    return answer(request, {"game": selectors.game_view(game),
                            "clock": clock_snapshot(event, timezone.now())}, status=status)
