"""Pages of the race: its public results (no login) and, for organisers, its balises to
print."""
from django.urls import path

from . import views

urlpatterns = [
    path("<int:event_id>/results/", views.results_page),
    path("<int:event_id>/results.csv", views.results_csv),
    path("<int:event_id>/results.xml", views.results_xml),
    path("<int:event_id>/startlist.xml", views.startlist_xml),
    path("<int:event_id>/iof/results.xml", views.organiser_iof_xml, {"message": "results"}),
    path("<int:event_id>/iof/startlist.xml", views.organiser_iof_xml, {"message": "startlist"}),
    path("<int:event_id>/balises/", views.balises_page),
]
