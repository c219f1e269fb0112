"""The root URLconf (league is also the project package) with the league's own
pages under the ``league`` namespace."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from league import views

league_patterns = [
    path("", views.league_list, name="league_list"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include("campaigns.urls")),
    path("", include((league_patterns, "league"))),
]
