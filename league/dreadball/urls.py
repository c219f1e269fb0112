from django.urls import path

from league.dreadball import published_views, views

app_name = "dreadball"

urlpatterns = [
    path("leagues/<slug:slug>/team/", views.register_team, name="register_team"),
    path("leagues/<slug:slug>/organiser/published-teams/", published_views.published_teams, name="published_teams"),
]
