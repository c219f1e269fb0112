"""The natural Dungeon Bowl set-up path, on the site, without the
admin. Coaches invited on the Coaches page ("Enter them in the current season"
ticked) are entered before their teams exist; each founds and drafts a team
(DB-1, DB-6); the commissioner locks the drafts and enters the ready teams in one
click each, and the coach's entry (its fixtures too, when they were generated
first) becomes the team's. Before the fix the report form had no players ("No
players on the draft list"), approval failed ("Both sides of a Dungeon Bowl
fixture must be teams entered in the season") and entering the team refused
("already has a team")."""

import pytest
from django.urls import reverse

from league.services import seasons as season_services
from league.dungeonbowl.teams import entrants, services
from league.dungeonbowl.models import College, Position, Team, TeamSeason
from league.models import Coach, Entry, Fixture, Result
from tests.dungeonbowl.builders import FIRE, db_league
from tests.dungeonbowl.postgame.test_postgame import post
from tests.support.factories import CoachFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db

NAMES = ["Gotrek", "Felix", "Snorri", "Ulrika"]


def invite(client, organiser, league, names=NAMES):
    """The Coaches page, "Enter them in the current season" ticked (its default);
    each coach then has an account (the invitation accepted)."""
    client.force_login(organiser)
    for name in names:
        response = client.post(reverse("league:organiser_coaches", args=[league.slug]),
                               {"name": name, "email": f"{name.lower()}@example.com", "enter": "on"})
        assert response.status_code == 302, response.content.decode()[:2000]
    coaches = []
    for name in names:
        coach = Coach.objects.get(name=name)
        coach.user = UserFactory(username=name.lower())
        coach.save(update_fields=["user"])
        coaches.append(coach)
    return coaches


def found_and_draft(client, league, coach, team_name):
    """DB-1, DB-6: the coach is told on /me/ and on the league page, founds the
    team and submits its draft, all on the site."""
    client.force_login(coach.user)
    new_team = reverse("dungeonbowl:create_team", args=[league.slug])
    home = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Found your team" in home and new_team in home
    assert new_team in client.get(league.get_absolute_url()).content.decode()
    fire = College.objects.get(slug="college-of-fire")
    assert client.post(new_team, {"name": team_name, "college": fire.pk}).status_code == 302
    draft_home = client.get(reverse("league:my_fixtures")).content.decode()
    assert "Found your team" not in draft_home and "draft your players" in draft_home
    slayer = Position.objects.get(name="Troll Slayer")
    lineman = Position.objects.get(name="Dwarf Blocker Lineman")
    response = client.post(reverse("dungeonbowl:draft", args=[league.slug]),
                           {"rerolls": 2, f"pos_{slayer.pk}": 1, f"pos_{lineman.pk}": 10, "submit": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()


@pytest.mark.parametrize("fixtures_first", [False, True], ids=["teams-then-fixtures", "fixtures-then-teams"])
def test_db1_invited_coaches_found_draft_and_play(client, organiser, fixtures_first):
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    coaches = invite(client, organiser, league)
    assert Entry.objects.filter(season=season, team="").count() == 4
    if fixtures_first:  # an organiser's likely order: fixtures generated from the invited coaches
        season_services.generate_fixtures(season=season, by=organiser, seed=5)
    for coach in coaches:
        found_and_draft(client, league, coach, f"{coach.name}'s Stunties")

    client.force_login(organiser)
    page_url = reverse("dungeonbowl:entrants", args=[league.slug])
    dashboard = client.get(reverse("league:organiser_dashboard", args=[league.slug])).content.decode()
    assert page_url in dashboard
    page = client.get(page_url).content.decode()
    assert page.count("Draft submitted: to lock") == 4
    assert "Drafts are still open" in page  # why "enter" cannot be done yet
    refused = client.post(reverse("dungeonbowl:enter_ready", args=[league.slug]), follow=True).content.decode()
    assert "4 drafts still open" in refused and not TeamSeason.objects.exists()
    # Locking is the last step: each team takes its coach's place at once.
    locked = client.post(reverse("dungeonbowl:lock_drafts", args=[league.slug]), follow=True).content.decode()
    assert "Locked:" in locked and "In their coaches&#x27; places in Season 1" in locked
    assert locked.count("Entered</span>") == 4
    assert Team.objects.filter(draft_locked_at__isnull=False).count() == 4
    nothing = client.post(reverse("dungeonbowl:enter_ready", args=[league.slug]), follow=True).content.decode()
    assert "No team is waiting to enter Season 1." in nothing
    # The invited coaches' entries became their teams': no second entry, same fixtures.
    assert Entry.objects.filter(season=season).count() == 4
    assert sorted(Entry.objects.values_list("team", flat=True)) == sorted(f"{n}'s Stunties" for n in NAMES)
    assert TeamSeason.objects.count() == 4
    if not fixtures_first:
        season_services.generate_fixtures(season=season, by=organiser, seed=5)
    client.logout()

    fixture = Fixture.objects.with_related().filter(round__season=season, round__number=1).first()
    client.force_login(fixture.home.coach.user)
    form = client.get(fixture.get_absolute_url()).content.decode()
    assert "No players on the draft list" not in form and "(Troll Slayer)" in form
    assert client.post(reverse("league:report_result", args=[fixture.pk]), post(fixture)).status_code == 302
    client.force_login(fixture.away.coach.user)
    assert client.post(reverse("league:confirm_result", args=[fixture.pk])).status_code == 302
    client.force_login(organiser)
    assert client.post(reverse("league:approve_result", args=[fixture.pk])).status_code == 302
    assert Result.objects.get(fixture=fixture).status == Result.Status.APPROVED


def test_enter_team_takes_the_coachs_teamless_entry(organiser):
    """What the admin action "Enter teams in a season" calls: it no longer refuses
    a coach entered without a team ("already has a team")."""
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    coach = CoachFactory(name="Gotrek")
    entry = Entry.objects.create(season=season, coach=coach)
    team = services.submit_draft(league=league, coach=coach, name="Karak Scorchers",
                                 college=College.objects.get(slug="college-of-fire"), picks=FIRE, rerolls=1, by=coach.user)
    assert services.enter_team(team=team, season=season, by=organiser) == entry
    entry.refresh_from_db()
    assert entry.team == "Karak Scorchers" and entry.dungeonbowl.team == team
    other = services.submit_draft(league=db_league(organiser, slug="other"), coach=coach, name="Elsewhere",
                                  college=College.objects.get(slug="college-of-fire"), picks=FIRE, rerolls=1,
                                  by=organiser)
    assert other.league != league


def test_the_readiness_page_for_every_role(client, organiser, other_organiser):
    league = db_league(organiser)
    SeasonFactory(league=league, name="Season 1")
    gotrek, felix = invite(client, organiser, league, ["Gotrek", "Felix"])
    client.logout()
    url = reverse("dungeonbowl:entrants", args=[league.slug])
    assert client.get(url).status_code == 302  # anonymous: log in
    for user in (gotrek.user, felix.user, other_organiser):
        client.force_login(user)
        assert client.get(url).status_code == 403
        for action in ("dungeonbowl:lock_drafts", "dungeonbowl:enter_ready"):
            assert client.post(reverse(action, args=[league.slug])).status_code == 403
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert page.count("No team yet") == 2 and "No submitted draft waits to be locked." in page
    response = client.post(reverse("dungeonbowl:lock_drafts", args=[league.slug]), follow=True)
    assert "No submitted draft waits to be locked." in response.content.decode()


def test_the_readiness_page_costs_the_same_whatever_the_league(client, organiser, django_assert_max_num_queries):
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    client.force_login(organiser)
    url = reverse("dungeonbowl:entrants", args=[league.slug])

    def queries():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    small = queries()
    for i in range(6):
        coach = CoachFactory(name=f"Coach {i}")
        Entry.objects.create(season=season, coach=coach)
        if i % 2:
            services.submit_draft(league=league, coach=coach, name=f"Team {i}",
                                  college=College.objects.get(slug="college-of-fire"), picks=FIRE, rerolls=1,
                                  by=organiser)
    with django_assert_max_num_queries(small):
        assert client.get(url).status_code == 200
    rows = entrants.readiness(league, season)
    assert entrants.counts(rows)[entrants.State.NO_TEAM] == 3


def test_entering_a_ready_team_in_a_running_season_asks_first(organiser):
    """LG-1 through the one rule: a coach new to a season whose fixtures exist is
    not entered by "enter the ready teams"; the reason says what to do."""
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    for i in range(4):
        Entry.objects.create(season=season, coach=CoachFactory(name=f"Coach {i}"))
    season_services.generate_fixtures(season=season, by=organiser, seed=5)
    late = CoachFactory(name="Latecomer")
    team = services.submit_draft(league=league, coach=late, name="Late Team",
                                 college=College.objects.get(slug="college-of-fire"), picks=FIRE, rerolls=1, by=organiser)
    services.lock_draft(team=team, by=organiser)
    entered, refused = entrants.enter_ready_teams(league=league, season=season, by=organiser)
    assert entered == [] and "Late Team" in refused[0] and "Nobody joins a running round robin" in refused[0]
    assert not Entry.objects.filter(coach=late).exists()


def test_enter_ready_enters_a_team_whose_coach_was_not_entered(client, organiser):
    """A coach who founded and drafted a team without being entered (a newcomer,
    DB-1): locking accepts the team, "enter the ready teams" enters it."""
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    newcomer = CoachFactory(name="Newcomer")
    found_and_draft_without_entry = services.submit_draft(
        league=league, coach=newcomer, name="New Team", college=College.objects.get(slug="college-of-fire"),
        picks=FIRE, rerolls=1, by=newcomer.user)
    client.force_login(organiser)
    page = client.get(reverse("dungeonbowl:entrants", args=[league.slug])).content.decode()
    assert "(not in the season yet)" in page
    client.post(reverse("dungeonbowl:lock_drafts", args=[league.slug]))
    assert not Entry.objects.exists()
    done = client.post(reverse("dungeonbowl:enter_ready", args=[league.slug]), follow=True).content.decode()
    assert "Entered: New Team." in done
    entry = Entry.objects.get()
    assert (entry.season, entry.coach, entry.dungeonbowl.team) == (season, newcomer, found_and_draft_without_entry)
