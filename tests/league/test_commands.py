"""The set-up and measuring commands: ``quickstart`` and ``benchmark``."""

from io import StringIO

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from campaigns import demo
from league.models import Coach, Fixture, League, Result
from league.permissions import ORGANISER_GROUP
from league.standings import standings_for


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
    page = client.get(reverse("league:my_fixtures"))
    assert page.context["to_confirm"] == [waiting.fixture]


@pytest.mark.django_db
def test_benchmark_prints_figures_and_leaves_nothing_behind():
    quickstart()
    before = counts()
    out = StringIO()

    call_command("benchmark", "--coaches", "6", "--repeat", "1", stdout=out)

    output = out.getvalue()
    assert counts() == before
    assert "6 coaches, 10 rounds, 30 approved results" in output  # GB-4 double round robin
    assert "standings of 6 coaches < 200 ms; each page < 500 ms" in output
    lines = {line.split()[0]: line for line in output.splitlines() if line.strip()}
    for name in ("standings_for(season)", "league_list", "league_detail", "fixtures", "standings_json",
                 "standings_csv"):
        median, queries, peak = lines[name].split()[1:4]
        assert float(median) >= 0 and int(queries) > 0 and float(peak) >= 0
    assert "HTTP 200 /leagues/" in lines["league_detail"]
    assert "Rolled back" in output
