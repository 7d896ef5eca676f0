"""Pages of the race: its public results (no login) and, for organisers, its balises to
print."""
from django.urls import path

from . import views

urlpatterns = [
    path("<int:event_id>/results/", views.results_page),
    path("<int:event_id>/results.csv", views.results_csv),
    path("<int:event_id>/balises/", views.balises_page),
]
