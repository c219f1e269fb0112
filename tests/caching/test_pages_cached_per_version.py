"""Pages built from a season are cached per version of the season
(league/caching/versions.py): every write that changes what they show gives the season a
new version in the same transaction, so a page is never stale, and a warm page
costs a handful of queries whatever the league's size."""

from __future__ import annotations

import pytest
from django.urls import reverse

from league.services import results as services
from league.caching import responses, versions
from league.services import seasons as season_services
from league.models import Fixture, Result, Season
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory


@pytest.fixture
def played(season, organiser):
    """Four coaches, fixtures generated, nothing played yet."""
    for name in ("Anvil", "Brisket", "Rage", "Velocity"):
        EntryFactory(season=season, coach=CoachFactory(name=name))
    season_services.generate_fixtures(season=season, by=organiser, seed=2)
    return season


def table(client, season) -> list[tuple[str, int]]:
    rows = client.get(reverse("league:standings_json", args=[season.league.slug])).json()["standings"]
    return [(row["coach"], row["lp"]) for row in rows]


def page(client, season) -> str:
    return client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()


def first_match(season) -> Fixture:
    return Fixture.objects.filter(round__season=season, round__number=1).matches().select_related(
        "home__coach__user", "away__coach__user"
    ).order_by("pk").first()


def test_approval_correction_and_reopen_each_show_at_once(client, played, organiser):
    assert all(lp == 0 for _, lp in table(client, played))
    page(client, played)  # both feeds and the page are now cached
    fixture = first_match(played)
    winner = fixture.home.coach.name

    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=4)
    assert all(lp == 0 for _, lp in table(client, played))  # reported, not approved: still nothing
    result = Result.objects.get(fixture=fixture)
    services.confirm_result(result=result, by=fixture.away.coach.user)
    services.approve_result(result=result, by=organiser)
    assert dict(table(client, played))[winner] == 3
    assert f"<td >{winner}" in page(client, played) or winner in page(client, played)

    services.record_result(fixture=fixture, by=organiser, home_score=5, away_score=12, reason="scoresheet swapped")
    lps = dict(table(client, played))
    assert lps[winner] == 0 and lps[fixture.away.coach.name] == 3

    services.reopen_result(result=result, by=organiser, reason="both coaches disagree")
    assert all(lp == 0 for _, lp in table(client, played))


def test_a_renamed_coach_and_a_new_entry_show_at_once(client, played):
    table(client, played)
    coach = first_match(played).home.coach
    coach.name = "Anvil the Second"
    coach.save()
    assert "Anvil the Second" in dict(table(client, played))
    EntryFactory(season=played, coach=CoachFactory(name="Latecomer"))
    assert "Latecomer" in dict(table(client, played))


def test_an_import_shows_at_once(client, tmp_path, organiser):
    from django.core.management import call_command

    path = tmp_path / "results.csv"
    path.write_text("league,round,home,away,home_vp,away_vp,status\nCache Cup,1,Ash,Birch,12,3,played\n", encoding="utf-8")
    call_command("import_results", str(path), by=organiser.username)
    season = Season.objects.get(league__name="Cache Cup")
    assert dict(table(client, season)) == {"Ash": 3, "Birch": 0}
    path.write_text(
        "league,round,home,away,home_vp,away_vp,status\nCache Cup,1,Ash,Birch,12,3,played\nCache Cup,2,Birch,Ash,12,10,played\n",
        encoding="utf-8",
    )
    call_command("import_results", str(path), by=organiser.username)
    assert dict(table(client, season)) == {"Ash": 3, "Birch": 3}


def test_a_warm_page_costs_the_same_few_queries_at_any_size(client, season, django_assert_max_num_queries):
    big = season_with_results(coaches=40, played_rounds=20, season=season)
    urls = [
        reverse("league:league_detail", args=[big.league.slug]),
        reverse("league:standings_json", args=[big.league.slug]),
        reverse("league:standings_csv", args=[big.league.slug]),
        reverse("league:league_ics", args=[big.league.slug]),
        reverse("league:fixtures", args=[big.league.slug]),
    ]
    for url in urls:
        client.get(url)
    for url in urls:
        with django_assert_max_num_queries(4):  # the league, its season (with its version), rounds for navigation
            assert client.get(url).status_code == 200


def test_a_warm_public_page_is_one_query_and_answers_304_to_its_etag(client, played, organiser, django_assert_num_queries):
    """An anonymous visitor's warm page or feed is the version lookup and
    a cache read; the version's ETag lets a client skip the body, until a write."""
    slug = played.league.slug
    urls = [reverse(name, args=[slug]) for name in ("league:league_detail", "league:standings_json",
                                                    "league:standings_csv", "league:league_ics", "league:fixtures")]
    etags = {url: client.get(url)["ETag"] for url in urls}
    for url in urls:
        with django_assert_num_queries(1):
            assert client.get(url).status_code == 200
        with django_assert_num_queries(1):
            assert client.get(url, headers={"if-none-match": etags[url]}).status_code == 304
    assert "Cookie" in client.get(urls[0])["Vary"]  # a shared HTTP cache keeps it from logged-in visitors

    fixture = first_match(played)
    services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason="scoresheet")
    for url in urls:
        fresh = client.get(url, headers={"if-none-match": etags[url]})
        assert fresh.status_code == 200 and fresh["ETag"] != etags[url], url
    assert dict(table(client, played))[fixture.home.coach.name] == 3


def test_logged_in_visitors_never_get_the_anonymous_page(client, played, organiser):
    url = reverse("league:league_detail", args=[played.league.slug])
    assert "Log in" in client.get(url).content.decode()  # cached for anonymous visitors
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "Log out" in page and "Organiser" in page
    client.logout()
    assert "Log out" not in client.get(url).content.decode()


def test_a_new_season_and_a_renamed_league_change_every_shared_page(client, played, organiser):
    url = reverse("league:league_detail", args=[played.league.slug])
    assert "Renamed Cup" not in client.get(url).content.decode()
    played.league.name = "Renamed Cup"
    played.league.save()
    assert "Renamed Cup" in client.get(url).content.decode()
    Season.objects.create(league=played.league, name="Autumn", start_date=played.start_date.replace(year=played.start_date.year + 1))
    assert "This league has no season yet." not in client.get(url).content.decode()
    assert "Autumn" in client.get(url).content.decode()


def test_the_anonymous_league_list_follows_every_change_it_shows(client, played, organiser, django_assert_max_num_queries):
    url = reverse("league:league_list")
    assert played.league.name in client.get(url).content.decode()
    with django_assert_max_num_queries(3):  # count, the page of leagues, their seasons' versions
        assert client.get(url).status_code == 200
    played.league.name = "Listed Anew"
    played.league.save()
    assert "Listed Anew" in client.get(url).content.decode()
    EntryFactory(season=played, coach=CoachFactory(name="Fifth"))
    assert '<td class="num">5</td>' in client.get(url).content.decode()
    from tests.support.factories import LeagueFactory

    LeagueFactory(name="Another League", slug="another-league")
    page = client.get(url).content.decode()
    assert "Another League" in page and "no season yet" in page
    client.force_login(organiser)
    assert "Waiting on you" in client.get(url).content.decode()



def _prepared_statements() -> list[str]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


@pytest.mark.parametrize("prepared", [True, False])
def test_the_warm_pages_version_query_is_prepared_on_postgresql_unless_turned_off(
    client, played, settings, prepared, django_assert_num_queries
):
    """The one query of a warm public page is planned once per connection
    (settings.PREPARED_STATEMENTS, on by default, through psycopg's
    ``prepare_threshold`` in the database OPTIONS), still counted and logged as a
    query, and nothing else the site runs is prepared."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    settings.PREPARED_STATEMENTS = prepared
    url = reverse("league:standings_json", args=[played.league.slug])
    client.get(url)  # builds and caches the feed
    with django_assert_num_queries(1) as captured:
        assert client.get(url).status_code == 200
    assert f"'{played.league.slug}'" in captured.captured_queries[0]["sql"]  # logged as run
    statements = _prepared_statements()
    assert statements == ([versions._versions_statement().sql.replace("%s", "$1")] if prepared else [])


class RecordingCache:
    """Django's cache with a list of the keys stored through league/caching/versions.py
    and league/caching/responses.py."""

    def __init__(self, cache) -> None:
        self.cache = cache
        self.keys: set[str] = set()

    def get(self, key, default=None):
        return self.cache.get(key, default)

    def set(self, key, value, timeout=None):
        self.keys.add(key)
        self.cache.set(key, value, timeout=timeout)


def test_an_unknown_parameter_after_a_write_never_reaches_later_visitors(client, played, organiser):
    """An anonymous ``?ref=<3,000 characters>`` right after a write used
    to be cached as the page every later visitor got, its sort links carrying it."""
    from django.test import Client

    url = reverse("league:league_detail", args=[played.league.slug])
    fixture = first_match(played)
    services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason="scoresheet")
    ref = "poison" * 500
    first = client.get(url, {"ref": ref, "sort": "-lp"})
    assert first.status_code == 200 and "poison" not in first.content.decode()
    assert "sort=lp" in first.content.decode()  # the sort it asked for stays, and its links toggle it
    for later in (Client().get(url), Client().get(url, {"sort": "-lp"})):
        page = later.content.decode()
        assert later.status_code == 200 and "poison" not in page and "ref=p" not in page, page[page.find("poison") - 300:][:400]
        assert 'href="?sort=coach"' in page or "sort=coach" in page


def test_the_cache_key_holds_only_validated_parameters(client, played, monkeypatch):
    """Unknown parameters are dropped and an unknown sort is the default,
    so ``?sort=<random>`` stores nothing new; a known sort and ``round=01`` are keyed
    as what they show. (Another game's column is this league's default order, keyed
    apart: a bounded few.)"""
    from league.web import public as views

    recording = RecordingCache(versions.cache)
    monkeypatch.setattr(versions, "cache", recording)
    monkeypatch.setattr(responses, "cache", recording)
    slug = played.league.slug
    page_url, fixtures_url = reverse("league:league_detail", args=[slug]), reverse("league:fixtures", args=[slug])
    default = client.get(page_url).content
    client.get(fixtures_url, {"round": "1"})
    stored = set(recording.keys)
    other_game = sorted(views._sortable() - views._sortable(played.league.game_system))[0]
    for number in range(20):
        for sort in (f"random{number}", "-" * number, f"--{other_game}", ""):
            response = client.get(page_url, {"sort": sort, "ref": "x" * number, f"p{number}": "1"})
            assert response.status_code == 200 and response.content == default
        assert client.get(fixtures_url, {"round": "0" * number + "1", "ref": number}).status_code == 200
    assert recording.keys == stored

    assert client.get(page_url, {"sort": "coach"}).content != default
    assert len(recording.keys - stored) == 2  # the page and its body, sorted by coach
    assert client.get(fixtures_url, {"round": "9" * 5000}).status_code == 404  # no such round, nothing stored
    assert len(recording.keys - stored) == 2
    assert client.get(page_url, {"sort": other_game}).content == default


def test_a_search_of_the_league_list_is_not_stored(client, played, monkeypatch):
    """Any text is a search, so each stored would store a page per
    request; the list's pages (the page number is clamped to the pages there are)
    are stored once."""
    recording = RecordingCache(versions.cache)
    monkeypatch.setattr(versions, "cache", recording)
    monkeypatch.setattr(responses, "cache", recording)
    url = reverse("league:league_list")
    client.get(url)
    stored = set(recording.keys)
    assert len(stored) == 1
    for number in range(20):
        found = client.get(url, {"q": f"nothing like it {number}", "page": str(number), "ref": "x" * number})
        assert found.status_code == 200 and f"nothing like it {number}" in found.content.decode()
        assert client.get(url, {"page": str(number), "ref": number}).status_code == 200
    assert recording.keys == stored
    assert played.league.name in client.get(url, {"q": played.league.name[:5]}).content.decode()


@pytest.mark.parametrize("flag, threshold", [("true", 0), ("false", None)])
def test_prepared_statements_are_psycopgs_prepare_threshold_option(flag, threshold):
    """The setting is psycopg's documented connection option, passed
    through Django's database OPTIONS; PREPARED_STATEMENTS=false (PgBouncer in
    transaction mode before 1.21) leaves Django's default, None: nothing prepared."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "PREPARED_STATEMENTS": flag}
    code = "import json, league.settings as s; print(json.dumps(s.DATABASES['default'].get('OPTIONS', {})))"
    options = json.loads(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout)
    assert options.get("prepare_threshold") == threshold


def test_every_cached_entry_expires_so_an_old_version_ages_out(client, played, organiser, settings, monkeypatch):
    """Entries carry the season's version in their key and a timeout
    (settings.CACHES' TIMEOUT), so what an approval made obsolete leaves the cache
    without anyone asking for it; the current version is simply built again."""
    from django.core.cache import cache
    from django.core.cache.backends import locmem

    assert settings.CACHES["default"]["TIMEOUT"] == settings.CACHE_TIMEOUT > 0
    slug = played.league.slug
    urls = [reverse(name, args=[slug]) for name in ("league:league_detail", "league:standings_json", "league:fixtures")]
    for url in urls:
        client.get(url)
    old_version = str(Season.objects.get(pk=played.pk).version)
    stored = dict(cache._expire_info)
    assert any(old_version in key for key in stored) and len(stored) >= len(urls)
    now = locmem.time.time()
    assert all(expiry is not None and expiry <= now + settings.CACHE_TIMEOUT + 1 for expiry in stored.values())

    services.record_result(fixture=first_match(played), by=organiser, home_score=12, away_score=2, reason="scoresheet")
    for url in urls:
        client.get(url)  # the new version's entries, beside the old ones until they expire
    monkeypatch.setattr(locmem.time, "time", lambda: now + settings.CACHE_TIMEOUT + 5)
    assert all(cache.get(key.split(":", 2)[-1]) is None for key in stored)  # the old version has aged out
    assert dict(table(client, played))[first_match(played).home.coach.name] == 3  # and the page is rebuilt, current
