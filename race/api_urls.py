"""The race's API, under /api/race/ (docs/api.md, "Zombie race")."""
from django.urls import path

from . import apis, entry_apis as entry, race_apis as race

EVENT = "events/<int:event_id>/"
COURSE = "courses/<int:course_id>/"
ENTRY = "entries/<int:entry_id>/"

urlpatterns = [
    path(EVENT + "courses/", apis.CoursesApi.as_view()),
    path(EVENT + "entries/", apis.EntriesApi.as_view()),
    path(EVENT + "entries/import/", race.EntriesImportApi.as_view()),
    path(EVENT + "iof/import/", race.IofImportApi.as_view()),
    path(EVENT + "zombies/", apis.ZombiesApi.as_view()),
    path(EVENT + "punches/import/", race.PunchImportApi.as_view()),
    path(EVENT + "bibs/<str:code>/", race.BibApi.as_view()),
    path(EVENT + "grabs/", race.GrabApi.as_view()),
    path(EVENT + "leaderboard/", race.LeaderboardApi.as_view()),
    path(EVENT + "safety/", race.SafetyApi.as_view()),
    path(COURSE + "checkpoints/", apis.CheckpointsApi.as_view()),
    path(COURSE + "points/", apis.CoursePointsApi.as_view()),
    path(COURSE + "start/", race.MassStartApi.as_view()),
    path(ENTRY, entry.EntryApi.as_view()),
    path(ENTRY + "gear/", entry.GearApi.as_view()),
    path(ENTRY + "deposit/", entry.DepositApi.as_view()),
    path(ENTRY + "start/", entry.StartApi.as_view()),
    path(ENTRY + "punches/", entry.PunchApi.as_view()),
    path(ENTRY + "zone-losses/", entry.ZoneLossApi.as_view()),
    path(ENTRY + "infractions/", entry.InfractionApi.as_view()),
    path(ENTRY + "carrier/", entry.CarrierApi.as_view()),
    path(ENTRY + "finish/", entry.FinishApi.as_view()),
    path(ENTRY + "finger-return/", entry.FingerReturnApi.as_view()),
    path(ENTRY + "abandon/", entry.AbandonApi.as_view()),
    path(ENTRY + "disqualify/", entry.DisqualifyApi.as_view()),
    path("life-losses/<int:loss_id>/void/", entry.LifeLossVoidApi.as_view()),
]
