from django.urls import path

from race.consumers import ResultsConsumer

websocket_urlpatterns = [path("ws/race/<int:event_id>/results/", ResultsConsumer.as_asgi())]
