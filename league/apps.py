from django.apps import AppConfig
from django.db.models import Q
from django.contrib.admin import apps as admin_apps


class CockpitAdminConfig(admin_apps.AdminConfig):
    """``django.contrib.admin`` with the cockpit (league/admin_site.py) as its
    default site: INSTALLED_APPS names this instead of "django.contrib.admin"."""

    default = False  # "league" itself is LeagueConfig
    default_site = "league.admin_site.CockpitSite"


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "Leagues"

    def ready(self) -> None:
        # Imported here, not at the top: apps.py loads before any model, and these
        # modules import models (Django's app loading; ready() runs once all are loaded).
        from league import checks  # noqa: F401  (registers the deploy checks)
        from league.text import plaintext
        from league.caching import kept_pages, versions, writes
        from league.standings import history
        from league.web import idempotency
        from league.models import (
            Coach, Division, Entry, Fixture, JoinRequest, League, MergeRequest, Result, Round, Season,
        )

        # A write to a season's results carries the season's kept position history
        # to the version it leaves (league/caching/writes.py ``results_write``).
        writes.carry_history_with(history.advance)
        # Every text column of every app refuses control characters: a backup cannot hold them.
        plaintext.install()
        # What a season's pages show comes from these rows (league/caching/versions.py).
        versions.track(League, lambda league: Q(league_id=league.pk))
        versions.track(Season, lambda season: Q(pk=season.pk))
        versions.track(Division, lambda division: Q(pk=division.season_id))
        versions.track(Entry, lambda entry: Q(pk=entry.season_id))
        versions.track(Coach, lambda coach: Q(entries__coach_id=coach.pk))
        versions.track(Round, lambda rnd: Q(pk=rnd.season_id))
        versions.track(Fixture, lambda fixture: Q(rounds__pk=fixture.round_id))
        versions.track(Result, lambda result: Q(rounds__fixtures__pk=result.fixture_id))
        # The organiser's dashboard lists the league's pending requests of every season.
        versions.track(JoinRequest, lambda request: Q(league__seasons__pk=request.season_id))
        # A merge request shows on the account holder's /me/, kept per version of their seasons.
        versions.track(MergeRequest, lambda asked: Q(entries__coach_id__in=[asked.keep_id, asked.absorb_id]))
        versions.follow(League.organisers.through)  # who organises: the organiser's pages' key
        # A kept page's result forms each get a fresh submission key per request.
        kept_pages.fill_form_key_with(idempotency.hidden_field)
        # A league's file (league/leaguefiles/): the engine's rows; each game and
        # layer declares its own (league/games.py).
        from league.leaguefiles.engine import register_engine

        register_engine()
        # The games and layers declare themselves, every facet at once, from their
        # own ready() (league/games.py).
