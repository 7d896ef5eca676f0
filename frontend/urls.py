from django.urls import path

from club.chrony_apis import replica_label

from . import views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", views.printable_sheets),
    path("events/<int:event_id>/labels/", views.printable_labels),
    path("replicas/<int:replica_id>/label/", replica_label),  # the chrony's pass label
    path("manifest.webmanifest", views.manifest),
    path("sw.js", views.service_worker),
    path("healthz", views.healthz),
    path("jsi18n/<str:lang>/", views.js_catalog),
    path("", views.home),
]
