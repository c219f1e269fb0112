"""The league's file: what it holds and leaves behind, its cost in queries, and
the import's refusals (league/leaguefiles/, docs/export-format.md)."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Coach, Fixture, League, Result
from league.standings.season import standings_for
from league.leaguefiles import registry
from league.web import feeds
from tests.support.builders import season_with_results
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory


def _league(coaches: int, secret_hook: str = "https://discord.com/api/webhooks/1/secret-token") -> League:
    organiser = UserFactory()
    league = LeagueFactory(organisers=[organiser], discord_webhook=secret_hook)
    season_with_results(coaches=coaches, played_rounds=3, season=SeasonFactory(league=league, name="Spring"))
    return league


def _download(league) -> tuple[bytes, int]:
    client = Client()
    client.force_login(league.organisers.first())
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("league:organiser_export", args=[league.slug]))
        body = b"".join(response.streaming_content)
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith(f'attachment; filename="{league.slug}-')
    return body, len(queries)


@pytest.mark.django_db
def test_the_export_costs_the_same_queries_at_4_and_40_coaches():
    small, large = _league(4), _league(40)
    _download(small)  # content types and sessions warmed alike
    small_body, small_queries = _download(small)
    large_body, large_queries = _download(large)
    assert small_queries == large_queries
    counts = {t["model"]: len(t["rows"]) for t in json.loads(large_body)["tables"]}
    assert counts["league.coach"] == 40 and counts["league.result"] == Result.objects.filter(
        fixture__round__season__league=large).count() > 40


@pytest.mark.django_db
def test_the_file_names_coaches_and_leaves_addresses_accounts_and_secrets_behind():
    league = _league(4)
    body, _ = _download(league)
    data = json.loads(body)
    assert (data["format"], data["version"]) == (registry.FORMAT, registry.VERSION)
    text = body.decode()
    coaches = Coach.objects.filter(entries__season__league=league)
    assert all(coach.name in text for coach in coaches)
    for coach in coaches.select_related("user"):
        assert coach.email not in text and coach.user.email not in text
    assert league.webhook_secret not in text and "secret-token" not in text
    tables = {t["model"]: t for t in data["tables"]}
    assert "email" not in tables["league.coach"]["columns"] and "user" not in tables["league.coach"]["columns"]
    assert "organisers" not in tables["league.league"]["columns"]
    # A Guild Ball league's file holds no other game's rows.
    assert not [model for model in tables if model.startswith(("dungeonbowl.", "dreadball."))]


@pytest.mark.django_db
def test_an_import_beside_the_original_gives_a_new_league_with_the_same_table(tmp_path):
    league = _league(6)
    path = tmp_path / "league.json"
    path.write_bytes(_download(league)[0])
    with pytest.raises(CommandError, match="exists here already"):
        call_command("import_league", str(path))
    keeper = UserFactory(username="keeper")
    call_command("import_league", str(path), organiser="keeper", slug="taken-away", verbosity=0)
    copy = League.objects.get(slug="taken-away")
    assert copy.pk != league.pk and copy.is_organised_by(keeper) and copy.name == league.name
    old, new = league.seasons.get(), copy.seasons.get()
    assert feeds.standings_rows(standings_for(new), copy.rules) == feeds.standings_rows(standings_for(old), league.rules)
    assert Fixture.objects.filter(round__season=new).count() == Fixture.objects.filter(round__season=old).count()
    # The copy's coaches are new rows with no account: the original's stay theirs.
    assert not Coach.objects.filter(entries__season=new, user__isnull=False).exists()
    assert not set(Coach.objects.filter(entries__season=new)) & set(Coach.objects.filter(entries__season=old))


@pytest.mark.django_db
def test_a_file_of_another_version_or_not_a_league_is_refused_and_nothing_written(tmp_path):
    league = _league(4)
    data = json.loads(_download(league)[0])
    leagues = League.objects.count()
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**data, "version": registry.VERSION + 1}))
    with pytest.raises(CommandError, match=f"format version {registry.VERSION + 1}.*reads version {registry.VERSION} only"):
        call_command("import_league", str(other), slug="elsewhere")
    other.write_text("not json")
    with pytest.raises(CommandError, match="not a league file"):
        call_command("import_league", str(other), slug="elsewhere")
    # A fixture pointing at an entrant the file does not hold: the whole import is undone.
    tables = {t["model"]: t for t in data["tables"]}
    fixtures = tables["league.fixture"]
    fixtures["rows"][-1][fixtures["columns"].index("home")] = 10**9
    other.write_text(json.dumps(data))
    with pytest.raises(CommandError, match="does not fit together"):
        call_command("import_league", str(other), slug="elsewhere")
    assert League.objects.count() == leagues and not League.objects.filter(slug="elsewhere").exists()
    with pytest.raises(CommandError, match="cannot be a league's address"):
        call_command("import_league", str(other), slug="not an address")
    with pytest.raises(CommandError, match="No account"):
        call_command("import_league", str(other), organiser="nobody-here", slug="elsewhere")
