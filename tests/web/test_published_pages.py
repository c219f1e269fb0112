"""The published pages and feeds, as anyone sees them (GB-9, GB-10)."""

import csv
import datetime
import io

import re

import pytest
from django.urls import reverse
from django.utils import timezone

from league import selectors
from league.services import results as services
from league.models import Result
from league.standings.season import standings_for
from league.web.tables import StandingsTable
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, LeagueFactory, ResultFactory, RoundFactory, SeasonFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def small_league(season):
    """Four coaches, two rounds played: Anvil 6 LP; Rage and Velocity 3 LP (Rage ahead on VP).
    Round 2 is this week's (dated today), round 3 next week's."""
    season.start_date = timezone.localdate() - datetime.timedelta(days=7)
    season.save(update_fields=["start_date"])
    names = ["Anvil", "Brisket", "Rage", "Velocity"]
    entries = {n: EntryFactory(season=season, coach=CoachFactory(name=n), team="Mason's") for n in names}
    r1 = RoundFactory(season=season, number=1)
    r2 = RoundFactory(season=season, number=2)
    r3 = RoundFactory(season=season, number=3)

    def play(rnd, home, away, hs, as_):
        f = FixtureFactory(round=rnd, home=entries[home], away=entries[away])
        ResultFactory(fixture=f, home_score=hs, away_score=as_)
        return f

    play(r1, "Velocity", "Rage", 12, 10)
    play(r1, "Anvil", "Brisket", 12, 2)
    play(r2, "Rage", "Brisket", 14, 4)
    play(r2, "Anvil", "Velocity", 12, 11)
    FixtureFactory(round=r3, home=entries["Anvil"], away=entries["Rage"])
    FixtureFactory(round=r3, home=entries["Brisket"], away=entries["Velocity"])
    return season


def test_league_list(client, small_league):
    LeagueFactory(name="Empty League", slug="empty")
    page = client.get(reverse("league:league_list")).content.decode()
    assert "Midlands Big League" in page and "Season 1" in page
    assert "Empty League" in page and "no season yet" in page


def test_league_page_shows_standings_latest_results_and_next_fixtures(client, small_league):
    response = client.get(reverse("league:league_detail", args=["midlands"]))
    page = response.content.decode()
    table = response.context["table"]
    assert [row.coach for row in table.data] == ["Anvil", "Rage", "Velocity", "Brisket"]
    assert "level with Velocity on 3 LP; ahead on VP scored, 24 to 23" in page
    assert "Results: Round 2" in page and "Next: Round 3" in page
    assert "<strong>14 – 4</strong>" in page


def _coach_order(page: str) -> list[str]:
    """The coaches in the order the standings table lists them."""
    body = page.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return sorted((name for name in ("Anvil", "Rage", "Velocity", "Brisket") if name in body), key=body.index)


def test_every_sortable_standings_column_renders(client, small_league):
    url = reverse("league:league_detail", args=["midlands"])
    table = StandingsTable(standings_for(small_league), league=small_league.league, season=small_league)
    sortable = [column.name for column in table.columns if column.orderable]
    assert {"position", "coach", "lp", "vp_for", "vp_diff"} <= set(sortable)
    for name in sortable:
        for prefix in ("", "-"):
            response = client.get(url, {"sort": prefix + name})
            assert response.status_code == 200
            assert len(_coach_order(response.content.decode())) == 4
    # Sorting by LP keeps the GB-9 tiebreakers within equal LP; by VP scored changes the order.
    assert _coach_order(client.get(url, {"sort": "lp"}).content.decode()) == ["Anvil", "Rage", "Velocity", "Brisket"]
    assert client.get(url, {"sort": "vp_for"}).content != client.get(url, {"sort": "-vp_for"}).content


def test_unknown_league_and_season_are_404(client, small_league):
    assert client.get(reverse("league:league_detail", args=["nope"])).status_code == 404
    assert client.get(reverse("league:standings_json", args=["nope"])).status_code == 404
    assert client.get(reverse("league:league_detail", args=["midlands"]), {"season": "Nope"}).status_code == 404


def test_league_without_season(client):
    LeagueFactory(name="Fresh", slug="fresh")
    assert "no season yet" in client.get(reverse("league:league_detail", args=["fresh"])).content.decode()
    assert client.get(reverse("league:standings_json", args=["fresh"])).status_code == 404
    assert client.get(reverse("league:standings_csv", args=["fresh"])).status_code == 404


def test_fixtures_page_shows_one_round_with_every_round_in_reach(client, season):
    season_with_results(coaches=5, played_rounds=1, season=season)
    url = reverse("league:fixtures", args=[season.league.slug])
    rounds = [client.get(url, {"round": n}).content.decode() for n in range(1, 6)]
    for number, page in enumerate(rounds, start=1):
        assert f"<h2>Round {number} " in page
        assert page.count("<h2>Round") == 1
        assert page.count("has a bye") == 1
        assert f'<strong aria-current="page">{number}</strong>' in page
        assert all(f"round={n}" in page for n in range(1, 6) if n != number)
    assert "<strong>" in rounds[0].split("<ul", 1)[1]  # round 1's scores
    # By default: this week's round, the last one dated today or earlier.
    latest_begun = season.rounds.filter(date__lte=timezone.localdate()).order_by("-number").first()
    expected = latest_begun.number if latest_begun else 1
    assert f"<h2>Round {expected} " in client.get(url).content.decode()
    assert client.get(url, {"round": "9"}).status_code == 404
    assert client.get(url, {"round": "x"}).status_code == 404


def test_coach_page(client, small_league):
    rage = small_league.entries.get(coach__name="Rage")
    page = client.get(reverse("league:coach_detail", args=["midlands", rage.coach_id])).content.decode()
    assert "<strong>2</strong> in the table with <strong>3 LP</strong>" in page
    assert "Level with Velocity on 3 LP; ahead on VP scored, 24 to 23" in page
    assert "Position after each round: 3, 2" in page
    # Still to play (each name after its team's colour mark).
    assert re.search(r"Anvil\s+v\s+<span class=\"badge b\d+\" title=\"[^\"]*\" aria-hidden=\"true\">.</span>Rage", page)
    # Rage's own line among the field, and the form guide (W/L marks) with words for both.
    assert '<title id="mine-title">Rage: position by round</title>' in page
    assert "Rage&#x27;s position after each of 2 rounds: 3, 2." in page
    assert "Last 2 results, oldest first:" in page
    assert "<strong>14 – 4</strong>" in page


def test_coach_page_404_for_coach_not_in_season(client, small_league):
    outsider = CoachFactory(name="Outsider")
    assert client.get(reverse("league:coach_detail", args=["midlands", outsider.pk])).status_code == 404


def test_standings_json_shape(client, small_league):
    data = client.get(reverse("league:standings_json", args=["midlands"])).json()
    assert data["league"] == "midlands" and data["season"] == "Season 1"
    assert data["standings"][0] == {
        "division": None,
        "position": 1,
        "tied": False,
        "coach": "Anvil",
        "played": 2,
        "won": 2,
        "lost": 0,
        "lp": 6,
        "vp_for": 24,
        "vp_against": 13,
        "vp_diff": 11,
        "withdrawn_on": None,
    }
    assert [row["coach"] for row in data["standings"]] == ["Anvil", "Rage", "Velocity", "Brisket"]


def test_standings_json_other_season_and_shared_position(client, small_league, league):
    old = SeasonFactory(league=league, name="Season 0", start_date=datetime.date(2025, 1, 6))
    a, b = EntryFactory(season=old, coach__name="Old A"), EntryFactory(season=old, coach__name="Old B")
    c, d = EntryFactory(season=old, coach__name="Old C"), EntryFactory(season=old, coach__name="Old D")
    rnd = RoundFactory(season=old, number=1)
    ResultFactory(fixture=FixtureFactory(round=rnd, home=a, away=c), home_score=12, away_score=4)
    ResultFactory(fixture=FixtureFactory(round=rnd, home=b, away=d), home_score=12, away_score=4)
    data = client.get(reverse("league:standings_json", args=["midlands"]), {"season": "Season 0"}).json()
    assert data["season"] == "Season 0"
    assert [(r["coach"], r["position"], r["tied"]) for r in data["standings"]] == [
        ("Old A", 1, True),
        ("Old B", 1, True),
        ("Old C", 3, True),
        ("Old D", 3, True),
    ]


def test_standings_csv_same_columns(client, small_league):
    response = client.get(reverse("league:standings_csv", args=["midlands"]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == ["division", "position", "tied", "coach", "played", "won", "lost", "lp", "vp_for", "vp_against", "vp_diff",
                             "withdrawn_on"]
    assert rows[1] == {
        "division": "", "position": "2", "tied": "false", "coach": "Rage", "played": "2", "won": "1", "lost": "1",
        "lp": "3", "vp_for": "24", "vp_against": "16", "vp_diff": "8", "withdrawn_on": "",
    }


def test_only_approved_results_count(client, small_league, organiser):
    fixture = small_league.rounds.get(number=3).fixtures.get(home__coach__name="Brisket")
    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=0)
    rows = client.get(reverse("league:standings_json", args=["midlands"])).json()["standings"]
    assert {r["coach"]: r["lp"] for r in rows}["Brisket"] == 0
    services.approve_result(result=Result.objects.get(fixture=fixture), by=organiser, reason="agreed")
    rows = client.get(reverse("league:standings_json", args=["midlands"])).json()["standings"]
    assert {r["coach"]: r["lp"] for r in rows}["Brisket"] == 3


def test_league_ical_feed(client, small_league):
    response = client.get(reverse("league:league_ics", args=["midlands"]))
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
    assert body.count("BEGIN:VEVENT") == 6
    assert "SUMMARY:Midlands Big League Round 3: Anvil v Rage" in body
    assert "DESCRIPTION:Result: Velocity 12 - 10 Rage" in body
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))


def test_coach_ical_feed_has_only_their_fixtures(client, small_league):
    rage = small_league.entries.get(coach__name="Rage")
    body = client.get(reverse("league:coach_ics", args=["midlands", rage.coach_id])).content.decode()
    assert body.count("BEGIN:VEVENT") == 3
    assert "X-WR-CALNAME:Midlands Big League: Rage" in body


def test_my_fixtures_needs_login(client):
    response = client.get(reverse("league:my_fixtures"))
    assert response.status_code == 302 and reverse("login") in response.url


def test_my_fixtures_shows_what_waits_on_the_coach(client, small_league, organiser):
    fixture = small_league.rounds.get(number=3).fixtures.get(home__coach__name="Anvil")
    services.report_result(fixture=fixture, by=fixture.home.coach.user, home_score=12, away_score=9)
    client.force_login(fixture.away.coach.user)  # Rage confirms
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Confirm or dispute:" in page and "Anvil" in page
    client.force_login(fixture.home.coach.user)  # Anvil waits on Rage
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Waiting on others" in page and "Confirm or dispute:" not in page
    client.force_login(organiser)
    page = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Waiting on you as organiser" in page and "Awaiting confirmation" in page


def test_my_fixtures_for_user_without_coach(client, other_organiser):
    client.force_login(other_organiser)
    assert "not linked to a coach" in client.get(reverse("league:my_fixtures")).content.decode()


def test_login_page_and_login(client, small_league, password):
    rage = small_league.entries.get(coach__name="Rage").coach.user
    assert client.get(reverse("login")).status_code == 200
    response = client.post(reverse("login"), {"username": rage.username, "password": password})
    assert response.status_code == 302 and response.url == reverse("league:my_fixtures")


def test_league_pages_lead_to_the_campaign(client, small_league, organiser):
    """The weekly publication shows the title race (GB-3) and links to the Big League pages."""
    fixture = small_league.rounds.get(number=3).fixtures.get(home__coach__name="Anvil")
    services.record_result(fixture=fixture, by=organiser, home_score=12, away_score=5, reason="by phone")
    page = client.get(reverse("league:league_detail", args=["midlands"])).content.decode()
    assert "The Big League" in page and reverse("campaigns:campaign_table", args=["midlands"]) in page
    assert "<strong>League Champion</strong>: Anvil" in page
    page = client.get(fixture.get_absolute_url()).content.decode()
    assert reverse("campaigns:fixture_page", args=["midlands", fixture.pk]) in page
    anvil = fixture.home.coach if fixture.home.coach.name == "Anvil" else fixture.away.coach
    client.force_login(anvil.user)
    own_page = reverse("campaigns:coach_page", args=["midlands", anvil.pk])
    assert own_page in client.get(reverse("league:my_fixtures")).content.decode()
    assert own_page in client.get(reverse("league:coach_detail", args=["midlands", anvil.pk])).content.decode()


def test_league_page_shows_this_weeks_round_and_an_early_result_where_it_belongs_gb10(client, small_league, organiser):
    """GB-10: a result of next week's round approved early does not push this
    week's round off the page; it shows in its own round, next to the fixture still
    to play."""
    round3 = small_league.rounds.get(number=3)
    done = round3.fixtures.get(home__coach__name="Anvil")
    services.record_result(fixture=done, by=organiser, home_score=12, away_score=4, reason="phone")
    page = client.get(reverse("league:league_detail", args=["midlands"])).content.decode()
    assert "Results: Round 2" in page and "<strong>14 – 4</strong>" in page
    assert "Results: Round 3" not in page and "Next: Round 3" in page
    next_week = page.split("Next: Round 3", 1)[1]
    assert "<strong>12 – 4</strong>" in next_week and re.search(r"Brisket\s+v\s+(<span[^>]*>[^<]*</span>)?Velocity", next_week)
    assert "Every fixture" not in page
    # This week's round not finished: it says so rather than "Results".
    Result.objects.filter(fixture__round__number=2, fixture__home__coach__name="Rage").delete()
    page = client.get(reverse("league:league_detail", args=["midlands"])).content.decode()
    assert "This week: Round 2" in page and "Next: Round 3" in page
    left = round3.fixtures.get(home__coach__name="Brisket")
    services.record_result(fixture=left, by=organiser, home_score=3, away_score=12, reason="phone")
    rage = small_league.rounds.get(number=2).fixtures.get(home__coach__name="Rage")
    services.record_result(fixture=rage, by=organiser, home_score=14, away_score=4, reason="phone")
    page = client.get(reverse("league:league_detail", args=["midlands"])).content.decode()
    assert "Every fixture of this season has been played." in page


def test_an_unplayed_table_says_so_once_instead_of_a_tie_note_per_line(client, season):
    """At the start of a season every coach is level on 0 LP; the page
    says so once, and no row reads "level with X on 0 LP: position shared"."""
    for name in ["Anvil", "Brisket", "Rage", "Velocity"]:
        EntryFactory(season=season, coach=CoachFactory(name=name))
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert page.count("No results yet: every coach is level on 0 LP") == 1
    assert "position shared" not in page and "level with" not in page and "Tiebreak" not in page
    assert all(row.note == "" for row in standings_for(season))
    coach_page = client.get(reverse("league:coach_detail", args=[season.league.slug, season.entries.first().coach_id]))
    assert "position shared" not in coach_page.content.decode()


def test_a_played_table_keeps_its_tie_notes(client, small_league):
    page = client.get(reverse("league:league_detail", args=[small_league.league.slug])).content.decode()
    assert "No results yet" not in page and "level with" in page


def test_the_league_page_lists_twenty_matches_a_round_and_links_to_the_rest(client):
    """22 matches a round (44 coaches); this week and next week show 20
    each and link to the round on the fixtures page."""
    season = season_with_results(coaches=44, played_rounds=1, season=SeasonFactory(
        league=LeagueFactory(slug="crowded"), start_date=timezone.localdate() - datetime.timedelta(days=2)))
    page = client.get(reverse("league:league_detail", args=["crowded"])).content.decode()
    assert page.count('<li class="fixture">') == 40
    fixtures = reverse("league:fixtures", args=["crowded"])
    for number in (1, 2):
        assert f'{fixtures}?season={season.name.replace(" ", "%20")}&amp;round={number}">All 22 matches of Round {number}' in page
    assert client.get(f"{fixtures}?round=1").content.decode().count('<li class="fixture">') == 22


def test_a_round_of_twenty_matches_is_listed_whole(client):
    season_with_results(coaches=40, played_rounds=1, season=SeasonFactory(
        league=LeagueFactory(slug="full"), start_date=timezone.localdate() - datetime.timedelta(days=2)))
    page = client.get(reverse("league:league_detail", args=["full"])).content.decode()
    assert page.count('<li class="fixture">') == 40 and "matches of Round" not in page


def test_the_standings_show_fifty_rows_a_page(client):
    """A big field's table is paged, 50 rows a page."""
    season_with_results(coaches=60, played_rounds=2, season=SeasonFactory(league=LeagueFactory(slug="paged")))
    url = reverse("league:league_detail", args=["paged"])

    def table(page: str) -> str:
        return page[page.index("<table"):page.index("</table>")]

    first, second = client.get(url).content.decode(), client.get(url, {"page": 2}).content.decode()
    assert table(first).count("<tr") == 51 and table(second).count("<tr") == 11  # with the header row


def test_every_fixture_played_is_said_only_when_every_one_is(season, django_assert_num_queries):
    """GB-10's week (``selectors.publication``): a match of this week's or next week's
    round left to play answers "not over" without reading the season; with both
    rounds played, a match left in an earlier round still keeps it open."""
    from tests.support.builders import season_with_results

    played = season_with_results(coaches=4, played_rounds=6, season=season)  # a double round robin: all of it
    last = max(played.rounds.values_list("number", flat=True))
    today = played.rounds.get(number=last).date
    assert selectors.publication(played, today).all_played
    early = Result.objects.filter(fixture__round__season=played, fixture__round__number=1).first()
    early.status = Result.Status.REPORTED
    early.save()
    assert not selectors.publication(played, today).all_played  # the shown rounds are played, round 1 is not
    shown = Result.objects.filter(fixture__round__season=played, fixture__round__number=last).first()
    shown.delete()
    with django_assert_num_queries(2):  # the rounds, their first fixtures with their numbers: no third
        assert not selectors.publication(played, today).all_played


def test_a_season_whose_last_round_has_passed_says_it_is_over(client):
    """GB-10's week ends with the season: once the last round's week has passed,
    the league page says the season is over instead of "This week: Round N",
    even with a match of that round left unplayed."""
    season = season_with_results(coaches=4, played_rounds=2, season=SeasonFactory(
        league=LeagueFactory(slug="bygone"), start_date=timezone.localdate() - datetime.timedelta(days=60)))
    last = season.rounds.order_by("-number").first()
    assert last.date + datetime.timedelta(days=season.cadence_days) <= timezone.localdate()
    page = client.get(reverse("league:league_detail", args=["bygone"])).content.decode()
    assert "The season is over" in page and f"Last round: {last}" in page
    assert "This week:" not in page and "Results: " not in page and "Next:" not in page
    # A day inside the last round's week, it is still that week.
    assert not selectors.publication(season, last.date).over
    assert selectors.publication(season, last.date + datetime.timedelta(days=season.cadence_days)).over
