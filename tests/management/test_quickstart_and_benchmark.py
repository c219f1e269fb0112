"""The set-up and measuring commands: ``quickstart`` and ``benchmark``."""

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

from campaigns import demo
from league.management.commands import quickstart as quickstart_command
from league.models import Coach, Fixture, League, Result
from league.permissions import ORGANISER_GROUP
from league.standings.season import standings_for


def counts():
    """Rows of every model, the layers' included: running quickstart twice must not
    add a line to a ledger either."""
    return {model.__name__: model.objects.count() for model in apps.get_models()}


def quickstart():
    out = StringIO()
    call_command("quickstart", "--no-serve", verbosity=0, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_quickstart_loads_the_demo_league_once():
    first = quickstart()
    loaded = counts()
    second = quickstart()

    assert counts() == loaded
    assert loaded["CampaignPointLine"] > 0 and loaded["FavourLine"] > 0 and loaded["Deck"] > 0
    assert "Loaded the demo league Harbour Lights Big League" in first
    assert "already loaded; nothing added" in second
    for output in (first, second):
        assert "http://127.0.0.1:8000/" in output and "http://127.0.0.1:8000/admin/" in output
        assert "username 'longshanks', password 'longshanks-demo'" in output
        assert "username 'ada', password 'coach-demo'" in output

    league = League.objects.get(slug=demo.DEMO_SLUG)
    season = league.seasons.get()
    assert season.entries.count() == 10
    assert set(season.entries.values_list("team", flat=True)) <= {
        "Alchemist's", "Brewer's", "Butcher's", "Engineer's", "Fisherman's", "Hunter's", "Mason's",
        "Mortician's", "The Union",
    }
    assert season.rounds.count() == 9  # GB-4: single round robin of 10
    results = Result.objects.filter(fixture__round__season=season)
    statuses = {status: results.filter(status=status).count() for status in Result.Status.values}
    assert statuses["approved"] == 4 * 5 + 2
    assert statuses["reported"] == 2
    assert statuses["confirmed"] == 1
    assert results.filter(outcome="abandoned").count() == 1
    table = standings_for(season)
    assert sum(row.played for row in table) == 2 * statuses["approved"]


@pytest.mark.django_db
def test_quickstart_accounts_can_log_in(client):
    quickstart()
    organiser = get_user_model().objects.get(username=demo.ORGANISER_USERNAME)
    league = League.objects.get(slug=demo.DEMO_SLUG)
    assert organiser.is_staff and organiser.groups.filter(name=ORGANISER_GROUP).exists()
    assert league.is_organised_by(organiser) and not organiser.is_superuser

    response = client.post(
        reverse("admin:login"),
        {"username": demo.ORGANISER_USERNAME, "password": demo.ORGANISER_PASSWORD, "next": reverse("admin:index")},
        follow=True,
    )
    assert response.context["user"] == organiser
    assert "Your leagues, results and campaigns" in response.content.decode()

    client.logout()
    response = client.post(
        reverse("login"), {"username": demo.COACH_USERNAME, "password": demo.COACH_PASSWORD}, follow=True
    )
    coach = Coach.objects.get(user__username=demo.COACH_USERNAME)
    assert response.context["user"] == coach.user
    # The coach account has a result its opponent reported, waiting on it.
    waiting = Result.objects.get(
        fixture__round__number=demo.CURRENT_ROUND, status=Result.Status.REPORTED,
        fixture__in=Fixture.objects.involving(coach),
    )
    assert waiting.confirming_side == waiting.fixture.side_of(coach)
    # Kept after the log-in's redirect built it (league/caching/kept_pages.py): read what it shows.
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert page.count("Confirm or dispute:") == 1
    line = page[page.index("Confirm or dispute:"):]
    assert waiting.fixture.get_absolute_url() in line[:line.index("</li>")]


def test_benchmark_ratio_meets_or_misses_its_goal():
    from bench.benchmarking import Ratio

    assert Ratio("page", 0.6, 0.5, at_least=True).ok
    assert not Ratio("page", 0.4, 0.5, at_least=True).ok
    assert Ratio("queries", 20, 20, at_least=False).ok
    assert "MISSED" in Ratio("queries", 21, 20, at_least=False).line()


@pytest.mark.django_db
def test_the_bare_view_exists_only_while_benchmarking(client):
    """``/bench/bare/`` is mounted by the benchmark's URLconf (bench/urls.py, which
    only bench.settings names), never by the site's."""
    assert client.get("/bench/bare/").status_code == 404


@pytest.mark.django_db
def test_the_benchmarks_urlconf_mounts_the_bare_view_beside_the_site(client, settings):
    """The benchmark's settings serve the site as it is, plus the bare view."""
    from bench import settings as bench_settings

    assert bench_settings.ROOT_URLCONF == "bench.urls" and "bench" in bench_settings.INSTALLED_APPS
    assert "bench" not in settings.INSTALLED_APPS  # the site knows no benchmark
    settings.ROOT_URLCONF = bench_settings.ROOT_URLCONF
    response = client.get("/bench/bare/")
    assert response.status_code == 200 and response.json() == {"ok": True}
    assert client.get(reverse("league:league_list")).status_code == 200
    assert client.get("/no-such-page/").status_code == 404


def test_the_benchmark_command_runs_only_under_the_benchmarks_settings():
    from django.core.management import get_commands

    assert "benchmark" not in get_commands()


@pytest.mark.django_db
def test_benchmark_import_file_and_its_bulk_floor_hold_the_same_rows():
    from bench.benchmarking import bulk_insert_csv, import_csv
    from league.spreadsheets.files import read_rows, rules_for
    from league.spreadsheets.writer import import_rows, system_user

    text = import_csv(4, league="Bench Import")
    assert len(text.splitlines()) == 1 + 12  # GB-4: a double round robin of 4 coaches
    rules = rules_for("guildball")
    import_rows(read_rows(text.splitlines(keepends=True), rules=rules), rules=rules, by=system_user())
    assert bulk_insert_csv(text, by=system_user()) == 12
    imported = sorted(Result.objects.filter(fixture__round__season__league__slug="bench-import")
                      .values_list("fixture__round__number", "home_score", "away_score"))
    bulk = sorted(Result.objects.filter(fixture__round__season__league__slug__startswith="bulk-")
                  .values_list("fixture__round__number", "home_score", "away_score"))
    assert imported == bulk and len(bulk) == 12


def test_benchmark_prints_min_median_max_and_judges_the_median():
    """A ratio measured run by run prints its three figures; the
    verdict is on the median."""
    from bench.benchmarking import ratio_of

    ratio = ratio_of("page / bare", [70.0, 40.0, 90.0], [100.0, 100.0, 100.0], 0.6, True, "req/s")
    assert ratio.spread == (0.4, 0.7, 0.9) and ratio.value == 0.7 and ratio.ok
    assert "0.400 / 0.700 / 0.900" in ratio.line()
    assert not ratio_of("cold / group by", [5.0, 4.0, 6.0], [1.0, 1.0, 1.0], 3.0, False).ok


@pytest.mark.django_db
def test_the_benchmarks_login_cookie_logs_its_user_in(client):
    """The logged-in rows send a session cookie made as a login makes one."""
    from bench.benchmarking import login_cookie

    user = get_user_model().objects.create_user("bench-coach")
    for cookie in login_cookie(user).split("; "):  # the session and the CSRF cookie
        name, value = cookie.split("=", 1)
        client.cookies[name] = value
    assert client.get(reverse("league:my_fixtures")).status_code == 200  # not the login redirect


@pytest.mark.django_db
@pytest.mark.parametrize("given, served", [
    ((), "127.0.0.1:8000"),
    (("8001",), "127.0.0.1:8001"),
    (("--port", "8002"), "127.0.0.1:8002"),
    (("0.0.0.0:8003",), "0.0.0.0:8003"),
])
def test_quickstart_takes_a_port_as_runserver_does(monkeypatch, given, served):
    ran = []

    def call(name, *args, **kwargs):
        if name == "runserver":
            ran.append(args)
            return None
        return call_command(name, *args, **kwargs)

    class Worker:  # the task worker beside the server, not started here
        def __init__(self, *args, **kwargs): ...
        def terminate(self): ...
        def wait(self, timeout=None): ...

    monkeypatch.setattr(quickstart_command, "call_command", call)
    monkeypatch.setattr(quickstart_command.subprocess, "Popen", Worker)
    out = StringIO()
    call_command("quickstart", *given, verbosity=0, stdout=out)
    assert ran == [(served,)]
    assert f"Site:   http://{served}/" in out.getvalue()


@pytest.mark.parametrize("given", [("eighty",), ("8001", "--port", "8002"), ("99999",)])
def test_quickstart_refuses_a_port_it_cannot_serve_on_before_doing_anything(given):
    with pytest.raises(CommandError):
        call_command("quickstart", *given, "--no-serve", verbosity=0, stdout=StringIO())
