from django.urls import path

from league.dreadball import views

app_name = "dreadball"

urlpatterns = [
    path("leagues/<slug:slug>/team/", views.register_team, name="register_team"),
]
