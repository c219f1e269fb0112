"""The change mark (league/caching/change_mark.py): a process keeps a league's season
versions until a write anywhere on the server changes the mark, so a warm public
page runs no query at all, and a page is still never stale.

The test database's writes commit only in ``transactional_db`` tests; in the
others, every write is uncommitted to the end, so nothing is kept there (and
those tests see the query they always did)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.urls import reverse

from league.caching import change_mark
from league.services import seasons as season_services
from league.services import results as services
from league.caching import versions
from league.models import Fixture, League, Result
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory

ROOT = Path(__file__).resolve().parents[2]

# Writes that commit, as on the site (serialized_rollback as every committing test
# here: tests/web/test_errors.py).
committed = pytest.mark.django_db(transaction=True, serialized_rollback=True)


@pytest.fixture
def played(organiser):
    """Four coaches, fixtures generated, nothing played (committed in a ``committed`` test)."""
    season = SeasonFactory(league=LeagueFactory(name="Mark Cup", slug="mark-cup", organisers=[organiser]))
    for name in ("Anvil", "Brisket", "Rage", "Velocity"):
        EntryFactory(season=season, coach=CoachFactory(name=name))
    season_services.generate_fixtures(season=season, by=organiser, seed=2)
    return season


def first_match(season) -> Fixture:
    return Fixture.objects.filter(round__season=season, round__number=1).matches().select_related(
        "home__coach", "away__coach").order_by("pk").first()


def lps(client, season) -> dict[str, int]:
    rows = client.get(reverse("league:standings_json", args=[season.league.slug])).json()["standings"]
    return {row["coach"]: row["lp"] for row in rows}


# The mark itself ---------------------------------------------------------------------


def test_no_mark_without_a_file_and_a_missing_file_is_made(settings, tmp_path):
    settings.CHANGE_MARK_FILE = ""
    assert change_mark.current() is None
    change_mark.changed()  # nothing to write to: nothing happens

    settings.CHANGE_MARK_FILE = str(tmp_path / "mark")
    assert change_mark.current() is None  # missing: made now, used from the next read
    first = change_mark.current()
    assert first is not None and len(first) == change_mark.SIZE and change_mark.current() == first


def test_an_unreadable_mark_is_no_mark(settings, tmp_path):
    settings.CHANGE_MARK_FILE = str(tmp_path)  # a directory: opened, never read
    assert change_mark.current() is None
    (tmp_path / "short").write_bytes(b"1234")  # cut short: not a mark either
    settings.CHANGE_MARK_FILE = str(tmp_path / "short")
    assert change_mark.current() is None


def test_a_write_changes_the_mark_at_once_and_again_when_it_commits(db, settings, tmp_path,
                                                                     django_capture_on_commit_callbacks):
    settings.CHANGE_MARK_FILE = str(tmp_path / "mark")
    change_mark.current()
    before = change_mark.current()
    with django_capture_on_commit_callbacks(execute=True):
        change_mark.changed()
        during = change_mark.current()
        assert during != before and change_mark.uncommitted()
    assert change_mark.current() not in (before, during)


def test_a_mark_that_cannot_be_written_fails_the_write_before_it_commits(db, settings, tmp_path):
    """Other processes would keep serving what the write replaced: the write is
    refused instead, and nothing of it is left."""
    settings.CHANGE_MARK_FILE = str(tmp_path / "no-such-directory" / "mark")
    with pytest.raises(OSError):
        with transaction.atomic():
            LeagueFactory(name="Never Cup", slug="never-cup")
    assert not League.objects.filter(slug="never-cup").exists()


def test_a_mark_in_a_missing_directory_stops_the_site_at_its_checks(settings, tmp_path):
    from league.checks import change_mark_directory

    settings.CHANGE_MARK_FILE = str(tmp_path / "missing" / "mark")
    assert [error.id for error in change_mark_directory(None)] == ["league.E001"]
    settings.CHANGE_MARK_FILE = str(tmp_path / "mark")
    assert change_mark_directory(None) == []
    settings.CHANGE_MARK_FILE = ""
    assert change_mark_directory(None) == []


def test_the_memo_keeps_what_it_is_allowed_to_until_the_mark_changes(settings, tmp_path):
    settings.CHANGE_MARK_FILE = str(tmp_path / "mark")
    change_mark.current()
    reads = []

    def read(value):
        def run():
            reads.append(value)
            return value
        return run

    memo = change_mark.Memo(limit=3)
    assert memo.get("a", read([1])) == [1] and memo.get("a", read([9])) == [1]  # kept
    assert memo.get("gone", read([])) == [] and memo.get("gone", read([])) == []  # empty: never kept
    assert reads == [[1], [], []]
    (tmp_path / "mark").write_bytes(os.urandom(change_mark.SIZE))  # another process wrote
    assert memo.get("a", read([2])) == [2]
    for key in ("b", "c", "d"):  # at the limit the memo starts again
        memo.get(key, read([key]))
    assert len(memo.state[1]) <= 3


# Pages ---------------------------------------------------------------------------------


@committed
def test_a_warm_public_page_runs_no_query_until_a_write(client, played, organiser, django_assert_num_queries):
    slug = played.league.slug
    urls = [reverse(name, args=[slug]) for name in ("league:league_detail", "league:standings_json",
                                                    "league:standings_csv", "league:league_ics", "league:fixtures")]
    for url in urls:
        client.get(url)
    for url in urls:
        with django_assert_num_queries(0):
            assert client.get(url).status_code == 200

    fixture = first_match(played)
    services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason="scoresheet")
    assert lps(client, played)[fixture.home.coach.name] == 3  # committed: read again, not stale
    with django_assert_num_queries(0):
        assert lps(client, played)[fixture.home.coach.name] == 3


@committed
def test_made_up_league_addresses_are_not_kept(client, played):
    client.get(reverse("league:standings_json", args=[played.league.slug]))
    for n in range(5):
        assert client.get(reverse("league:standings_json", args=[f"no-such-league-{n}"])).status_code == 404
    assert set(versions._league_versions_kept.state[1]) == {played.league.slug}


@committed
def test_nothing_read_inside_an_uncommitted_write_is_kept(client, played, organiser, django_assert_num_queries):
    slug = played.league.slug
    url = reverse("league:standings_json", args=[slug])
    client.get(url)
    fixture = first_match(played)
    with transaction.atomic():
        services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason="scoresheet")
        assert lps(client, played)[fixture.home.coach.name] == 3  # this transaction sees its own write
        assert slug not in versions._league_versions_kept.state[1]
        transaction.set_rollback(True)
    assert lps(client, played)[fixture.home.coach.name] == 0  # rolled back: never shown to anyone
    with django_assert_num_queries(0):
        assert lps(client, played)[fixture.home.coach.name] == 0


@committed
def test_a_removed_organiser_loses_the_dashboard_at_once(client, played, organiser):
    """Whether the viewer organises the league is kept with the versions, and
    lets them into the organiser's pages: taking someone off the league changes
    the mark (versions.follow), so the memo never lets them in again."""
    url = reverse("league:organiser_dashboard", args=[played.league.slug])
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200  # kept
    played.league.organisers.remove(organiser)
    assert client.get(url).status_code in (403, 404)

    other = UserFactory(username="second-in-command")
    played.league.organisers.add(other)
    client.force_login(other)
    assert client.get(url).status_code == 200


@committed
def test_a_restored_season_changes_the_mark(played):
    """loaddata saves rows raw, with the versions they were dumped with; no version
    is bumped, but the mark changes, so no process keeps what the restore replaced."""
    from django.core import serializers

    before = change_mark.current()
    dumped = serializers.serialize("json", [played])
    for restored in serializers.deserialize("json", dumped):
        restored.save()
    assert change_mark.current() != before


@pytest.mark.postgres
@pytest.mark.skipif("postgresql" not in connection.settings_dict["ENGINE"], reason="needs PostgreSQL")
@committed
def test_a_write_in_another_process_shows_at_once(client, played, django_assert_num_queries):
    """What the mark is for: gunicorn's workers, ``run_tasks`` and the management
    commands are processes of their own. One approves a result while this one
    keeps the league's versions; this one's next page shows it."""
    url = reverse("league:standings_json", args=[played.league.slug])
    client.get(url)
    with django_assert_num_queries(0):
        client.get(url)
    fixture = first_match(played)
    database = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "CHANGE_MARK_FILE": str(os.environ["CHANGE_MARK_FILE"]),
    }
    code = (
        "import django; django.setup()\n"
        "from django.contrib.auth import get_user_model\n"
        "from league.services import results as services\nfrom league.models import Fixture\n"
        f"fixture = Fixture.objects.get(pk={fixture.pk})\n"
        "organiser = get_user_model().objects.get(username='longshanks')\n"
        "services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=2, reason='by another process')\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, timeout=120)
    assert Result.objects.get(fixture=fixture).home_score == 12
    assert lps(client, played)[fixture.home.coach.name] == 3
