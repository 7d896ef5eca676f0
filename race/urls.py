"""Public pages of the race (no login)."""
from django.urls import path

from . import views

urlpatterns = [
    path("<int:event_id>/results/", views.results_page),
    path("<int:event_id>/results.csv", views.results_csv),
]
