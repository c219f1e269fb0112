"""The site's URLconf plus ``/bench/bare/``, the floor the benchmark measures pages
against. Only ``bench.settings`` mounts it."""

from django.urls import path

from bench import views
from league.urls import handler404, handler500, urlpatterns as site_patterns  # noqa: F401  the site's error pages

urlpatterns = [path("bench/bare/", views.bare, name="bench_bare"), *site_patterns]
