from django.urls import path, re_path

from club.chrony_apis import replica_label

from . import field_views, views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", views.printable_sheets),
    path("events/<int:event_id>/labels/", views.printable_labels),
    path("replicas/<int:replica_id>/label/", replica_label),  # the chrony's pass label
    path("manifest.webmanifest", views.manifest),
    path("sw.js", views.service_worker),
    path("healthz", views.healthz),
    # On plain http too (SECURE_REDIRECT_EXEMPT): the event's authority, for phones to trust.
    path("field/ca/", field_views.field_ca_page),
    re_path(r"^field/ca\.(?P<encoding>crt|pem)$", field_views.field_ca_certificate),
    path("jsi18n/<str:lang>/", views.js_catalog),
    path("", views.home),
]
