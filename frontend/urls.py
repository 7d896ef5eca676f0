from django.urls import path

from club.chrony_apis import replica_label

from . import printing, views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", printing.character_cards),
    path("events/<int:event_id>/sheets.pdf", printing.character_cards_pdf),
    path("events/<int:event_id>/sheets/new-codes/", printing.new_codes),
    path("events/<int:event_id>/casualty-card/", printing.casualty_card),
    path("events/<int:event_id>/labels/", views.printable_labels),
    path("replicas/<int:replica_id>/label/", replica_label),  # the chrony's pass label
    path("manifest.webmanifest", views.manifest),
    path("sw.js", views.service_worker),
    path("healthz", views.healthz),
    path("jsi18n/<str:lang>/", views.js_catalog),
    path("", views.home),
]
