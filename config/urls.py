from django.contrib import admin
from django.urls import include, path
from django.conf import settings
from django.views.decorators.csp import csp_override
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from club import apis as club
from common.admin_login import LimitedAdminLoginForm
from club import chrony_apis as chrony
from combat import apis as combat
from combat import heal_apis as heals
from effects import apis as effects
from effects import item_apis as items
from effects import request_apis as asks
from health import apis as health
from live import apis as live
from players import apis as players
from players import access_apis as access
from players import organiser_apis as organisers
from players import privacy_apis as privacy
from players import readiness_apis as readiness
from push import apis as push
from schedule import clock_apis as clock
from schedule import day_apis as days
from schedule import game_apis as games

admin.site.login_form = LimitedAdminLoginForm    # failed passwords counted like links

api = [
    path("login/", players.LoginApi.as_view()),
    path("me/", players.MeApi.as_view()),
    path("rulesets/<str:key>/", players.RulesetApi.as_view()),
    path("events/", players.EventListApi.as_view()),
    path("events/<int:event_id>/characters/", live.EventCharactersApi.as_view()),
    path("events/<int:event_id>/clock/", clock.ClockApi.as_view()),
    path("events/<int:event_id>/emergency/", clock.EmergencyApi.as_view()),
    path("events/<int:event_id>/days/", days.EventDaysApi.as_view()),
    path("events/<int:event_id>/days/<int:day_id>/", days.EventDayApi.as_view()),
    path("events/<int:event_id>/options/", organisers.EventOptionsApi.as_view()),
    path("events/<int:event_id>/roster/", organisers.RosterImportApi.as_view()),
    path("characters/<int:character_id>/psych/", organisers.CharacterPsychApi.as_view()),
    path("events/<int:event_id>/journal/", players.JournalApi.as_view()),
    path("events/<int:event_id>/phones/", readiness.EventPhonesApi.as_view()),
    path("characters/<int:character_id>/readiness/", readiness.PhoneReadinessApi.as_view()),
    path("events/<int:event_id>/journal.csv", players.JournalCsvApi.as_view()),
    path("events/<int:event_id>/effects/", effects.EffectPushApi.as_view()),
    path("events/<int:event_id>/items/", items.EventItemsApi.as_view()),
    path("effects/<int:effect_id>/", effects.EffectApi.as_view()),
    path("events/<int:event_id>/requests/", asks.EventRequestsApi.as_view()),
    path("characters/<int:character_id>/requests/", asks.CharacterRequestsApi.as_view()),
    path("requests/<int:request_id>/answer/", asks.RequestAnswerApi.as_view()),
    path("characters/<int:character_id>/", health.CharacterApi.as_view()),
    path("characters/<int:character_id>/actions/", health.CharacterActionApi.as_view()),
    path("journal/<int:entry_id>/undo/", health.ActionUndoApi.as_view()),
    path("characters/<int:character_id>/history/", health.CharacterHistoryApi.as_view()),
    path("characters/<int:character_id>/outcomes/", health.CharacterOutcomesApi.as_view()),
    path("characters/<int:character_id>/qr.svg", health.CharacterQrApi.as_view()),
    path("characters/<int:character_id>/login-link/", players.LoginLinkApi.as_view()),
    path("characters/<int:character_id>/login-qr.svg", players.LoginQrApi.as_view()),
    path("characters/<int:character_id>/lost-phone/", access.LostPhoneApi.as_view()),
    path("characters/<int:character_id>/patients/<str:code>/", health.PatientApi.as_view()),
    path("characters/<int:character_id>/treatments/", health.TreatmentStartApi.as_view()),
    path("characters/<int:character_id>/items/<str:item_code>/", items.CharacterItemApi.as_view()),
    path("characters/<int:character_id>/items/<str:item_code>/use/",
         items.CharacterItemUseApi.as_view()),
    path("treatments/<int:treatment_id>/", health.TreatmentApi.as_view()),
    path("treatments/<int:treatment_id>/complete/", health.TreatmentCompleteApi.as_view()),
    path("treatments/<int:treatment_id>/abort/", health.TreatmentAbortApi.as_view()),
    path("characters/<int:character_id>/duels/", combat.DuelProposeApi.as_view()),
    path("duels/<int:duel_id>/answer/", combat.DuelAnswerApi.as_view()),
    path("characters/<int:character_id>/unions/", combat.UnionClaimApi.as_view()),
    path("characters/<int:character_id>/unions/join/", combat.UnionJoinApi.as_view()),
    path("characters/<int:character_id>/acharnements/", combat.AcharnementStartApi.as_view()),
    path("acharnements/<int:acharnement_id>/stop/", combat.AcharnementStopApi.as_view()),
    path("characters/<int:character_id>/search/", combat.SearchApi.as_view()),
    *(path(f"characters/<int:character_id>/firearms/<str:code>/{verb}/", combat.FirearmApi.as_view(),
           {"verb": verb}) for verb in ("take", "load", "shoot")),
    path("characters/<int:character_id>/shots/", combat.ShotApi.as_view()),
    path("characters/<int:character_id>/heals/", heals.HealStartApi.as_view()),
    path("heals/<int:heal_id>/stop/", heals.HealStopApi.as_view()),
    path("push/key/", push.PushKeyApi.as_view()),
    path("push/subscriptions/", push.PushSubscriptionsApi.as_view()),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file and Swagger UI's bundle comes
    # from the static files (SWAGGER_UI_DIST "SIDECAR"): no inline script, no CDN.
    path("docs/", csp_override(settings.SWAGGER_UI_CSP)(
        SpectacularSwaggerSplitView.as_view(url_name="schema"))),
    *(path(f"characters/<int:character_id>/items/<str:item_code>/{verb}/",
           items.CharacterItemCarryApi.as_view(), {"verb": verb}) for verb in ("carry", "drop")),
    path("characters/<int:character_id>/clarity/", effects.CharacterClarityApi.as_view()),
    # The airsoft club's register and its chrony station.
    path("events/<int:event_id>/club/", club.EventClubApi.as_view()),
    path("events/<int:event_id>/members/", club.EventMembersApi.as_view()),
    path("events/<int:event_id>/check-in/", club.CheckInApi.as_view()),
    path("events/<int:event_id>/sanctions/", club.EventSanctionsApi.as_view()),
    path("members/<int:member_id>/sanctions/", club.MemberSanctionsApi.as_view()),
    path("sanctions/<int:sanction_id>/revoke/", club.SanctionRevokeApi.as_view()),
    path("events/<int:event_id>/replicas/", chrony.EventReplicasApi.as_view()),
    path("replicas/<int:replica_id>/checks/", chrony.ReplicaChecksApi.as_view()),
    # The games of an airsoft day (schedule/services/games.py).
    path("events/<int:event_id>/games/", games.EventGamesApi.as_view()),
    path("games/<int:game_id>/start/", games.GameStartApi.as_view()),
    path("games/<int:game_id>/end/", games.GameEndApi.as_view()),
    # Personal data (docs/operations.md): a person's export and erasure, the retention.
    path("characters/<int:character_id>/export/", privacy.PersonExportApi.as_view()),
    path("characters/<int:character_id>/erase/", privacy.PersonEraseApi.as_view()),
    path("events/<int:event_id>/personal-data/", privacy.EventPersonalDataApi.as_view()),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include(api)),
    # The zombie race: its API and its public results page (race/).
    path("api/race/", include("race.api_urls")),
    # Real-world safety: calls for help, last seen, the safety board (safety/).
    path("api/", include("safety.urls")),
    path("race/", include("race.urls")),
    path("", include("frontend.urls")),
]

# A database that cannot be reached answers 503 database_unavailable (common/unavailable.py).
handler500 = "common.unavailable.server_error"
