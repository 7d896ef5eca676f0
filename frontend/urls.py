from django.urls import path

from . import views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", views.printable_sheets),
    path("events/<int:event_id>/labels/", views.printable_labels),
    path("manifest.webmanifest", views.manifest),
    path("sw.js", views.service_worker),
    path("healthz", views.healthz),
    path("jsi18n/<str:lang>/", views.js_catalog),
    path("", views.home),
]
