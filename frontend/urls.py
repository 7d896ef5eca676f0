from django.urls import path, re_path

from club.chrony_apis import replica_label

from . import field_views, printing, setup_views, views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", printing.character_cards),
    path("events/<int:event_id>/sheets.pdf", printing.character_cards_pdf),
    path("events/<int:event_id>/sheets/new-codes/", printing.new_codes),
    path("events/<int:event_id>/casualty-card/", printing.casualty_card),
    path("events/<int:event_id>/labels/", views.printable_labels),
    path("setup/<str:token>", setup_views.first_organiser),
    path("events/new/", setup_views.event_new),
    path("events/<int:event_id>/setup/", setup_views.event_setup),
    path("events/<int:event_id>/team/invite/", setup_views.event_invite),
    path("events/<int:event_id>/team/remove/", setup_views.event_team_remove),
    path("invite/<str:token>", setup_views.invitation),
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
