from django.urls import path

from . import views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("events/<int:event_id>/sheets/", views.printable_sheets),
    path("", views.home),
]
