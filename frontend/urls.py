from django.urls import path

from . import views

urlpatterns = [
    path("login/<str:token>", views.login_link),
    path("", views.home),
]
