"""Meetings of two coaches before a fixture: a queryset whose arguments may be
``OuterRef``s, so the fixture page and its cache key (league/caching/versions.py,
which sits below the models) read the same rows. It names the model by its app
label, as the cache does, so the cache can build on it without importing the models."""

from __future__ import annotations

from django.apps import apps
from django.db.models import Q


def meetings_before(fixture_id, home_coach, away_coach, date, game):
    """Approved, played results (abandoned ones are no meeting) between the two
    coaches of a fixture, on or before its date and not the fixture itself, in any
    league of ``game``, latest first."""
    Fixture = apps.get_model("league", "Fixture")
    between = (Q(home__coach_id=home_coach) & Q(away__coach_id=away_coach)) | (
        Q(home__coach_id=away_coach) & Q(away__coach_id=home_coach))
    return (
        Fixture.objects.matches().played().filter(between, date__lte=date, round__season__league__game_system=game)
        .exclude(pk=fixture_id).exclude(result__outcome="abandoned").order_by("-date", "-pk")
    )
