from django.urls import path

from league.ratings import views

app_name = "ratings"

urlpatterns = [
    path("ratings/<slug:game>/", views.ranking, name="ranking"),
    path("ratings/<slug:game>.json", views.feed, name="feed"),
]
