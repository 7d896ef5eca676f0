from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from effects import apis as effects
from health import apis as health
from players import apis as players
from push import apis as push

api = [
    path("login/", players.LoginApi.as_view()),
    path("me/", players.MeApi.as_view()),
    path("rulesets/<str:key>/", players.RulesetApi.as_view()),
    path("events/", players.EventListApi.as_view()),
    path("events/<int:event_id>/characters/", players.EventCharactersApi.as_view()),
    path("events/<int:event_id>/clock/", players.ClockApi.as_view()),
    path("events/<int:event_id>/journal/", players.JournalApi.as_view()),
    path("events/<int:event_id>/journal.csv", players.JournalCsvApi.as_view()),
    path("events/<int:event_id>/effects/", effects.EffectPushApi.as_view()),
    path("effects/<int:effect_id>/", effects.EffectApi.as_view()),
    path("characters/<int:character_id>/", health.CharacterApi.as_view()),
    path("characters/<int:character_id>/actions/", health.CharacterActionApi.as_view()),
    path("characters/<int:character_id>/history/", health.CharacterHistoryApi.as_view()),
    path("characters/<int:character_id>/qr.svg", health.CharacterQrApi.as_view()),
    path("characters/<int:character_id>/login-link/", players.LoginLinkApi.as_view()),
    path("characters/<int:character_id>/login-qr.svg", players.LoginQrApi.as_view()),
    path("characters/<int:character_id>/patients/<str:code>/", health.PatientApi.as_view()),
    path("characters/<int:character_id>/treatments/", health.TreatmentStartApi.as_view()),
    path("treatments/<int:treatment_id>/", health.TreatmentApi.as_view()),
    path("treatments/<int:treatment_id>/complete/", health.TreatmentCompleteApi.as_view()),
    path("treatments/<int:treatment_id>/abort/", health.TreatmentAbortApi.as_view()),
    path("push/key/", push.PushKeyApi.as_view()),
    path("push/subscriptions/", push.PushSubscriptionsApi.as_view()),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerView.as_view(url_name="schema")),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(api)),
    path("", include("frontend.urls")),
]
