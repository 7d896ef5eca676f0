from django.urls import path

from . import apis, plan_apis

urlpatterns = [
    path("events/<int:event_id>/help/", apis.HelpCallsApi.as_view()),
    path("help/<int:call_id>/take/", apis.HelpTakeApi.as_view()),
    path("help/<int:call_id>/close/", apis.HelpCloseApi.as_view()),
    path("events/<int:event_id>/safety/", apis.SafetyBoardApi.as_view()),
    path("events/<int:event_id>/safety/settings/", apis.SafetySettingsApi.as_view()),
    path("events/<int:event_id>/safety/plan/", plan_apis.SitePlanApi.as_view()),
    path("events/<int:event_id>/safety/plan/points/", plan_apis.SitePlanPointsApi.as_view()),
    path("events/<int:event_id>/safety/plan/image/", plan_apis.SitePlanImageApi.as_view()),
    path("characters/<int:character_id>/battery/", apis.BatteryApi.as_view()),
    path("characters/<int:character_id>/position/", apis.PositionApi.as_view()),
    path("characters/<int:character_id>/check-out/", apis.CheckOutApi.as_view()),
    path("characters/<int:character_id>/seen/", apis.SeenApi.as_view()),
    path("characters/<int:character_id>/out-for-real/", apis.OutForRealApi.as_view()),
]
