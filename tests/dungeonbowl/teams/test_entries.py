"""Founding a team, drafting it and entering it in a season without a superuser:
from the site and from the organiser's admin (DB-1, DB-2, DB-6)."""

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from league.dungeonbowl.models import College, DiceRoll, Position, Team, TeamSeason, TreasuryLine
from league.models import Division, Entry
from tests.dungeonbowl.builders import FIRE, db_league, db_team
from tests.support.factories import CoachFactory, SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


def fire() -> College:
    return College.objects.get(slug="college-of-fire")


def test_a_coach_founds_a_team_then_drafts_it(client):
    league = db_league(UserFactory(username="boss"))
    coach = CoachFactory(name="Gotrek")
    url = reverse("dungeonbowl:create_team", args=[league.slug])
    assert client.get(url).status_code == 302  # anonymous: log in first
    client.force_login(coach.user)
    assert "Found your team" in client.get(url).content.decode()
    refused = client.post(url, {"name": "", "college": fire().pk})
    assert "Name your team." in refused.content.decode() and not Team.objects.exists()
    response = client.post(url, {"name": "Karak Scorchers", "college": fire().pk})
    assert response.status_code == 302 and response["Location"] == reverse("dungeonbowl:draft", args=[league.slug])
    team = Team.objects.get()
    assert (team.name, team.coach, team.college, team.draft_submitted_at) == ("Karak Scorchers", coach, fire(), None)
    again = client.post(url, {"name": "Second Team", "college": fire().pk}).content.decode()
    assert "already coaches Karak Scorchers" in again and Team.objects.count() == 1

    page = client.get(reverse("dungeonbowl:draft", args=[league.slug])).content.decode()
    assert "Karak Scorchers · College of Fire" in page
    slayer = Position.objects.get(name="Troll Slayer")
    lineman = Position.objects.get(name="Dwarf Blocker Lineman")
    response = client.post(reverse("dungeonbowl:draft", args=[league.slug]),
                           {"rerolls": 2, f"pos_{slayer.pk}": 1, f"pos_{lineman.pk}": 10, "submit": "1"})
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.players.count() == 11 and team.draft_submitted_at is not None
    assert team.treasury() == 1_000_000 - 95_000 - 10 * 70_000 - 2 * 50_000


def test_the_commissioner_enters_teams_from_the_site(client, organiser):
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    north, south = Division.objects.create(season=season, name="North"), Division.objects.create(season=season, name="South")
    team = db_team(league, "Karak Scorchers")
    url = reverse("dungeonbowl:enter_team", args=[league.slug])

    client.force_login(team.coach.user)  # the team's own coach cannot
    assert client.post(url, {"team": team.pk, "season": season.pk, "division": north.pk}).status_code == 403
    client.force_login(organiser)
    page = client.get(reverse("dungeonbowl:draft", args=[league.slug])).content.decode()
    assert "Enter a team in a season" in page and "North (Season 1)" in page

    refused = client.post(url, {"team": team.pk, "season": season.pk}, follow=True).content.decode()
    assert "Season 1 has divisions: choose Karak Scorchers" in refused and not Entry.objects.exists()
    done = client.post(url, {"team": team.pk, "season": season.pk, "division": south.pk}, follow=True).content.decode()
    assert "Karak Scorchers is entered in Season 1 (South)." in done
    assert "entered in Season 1 (South)" in done
    entry = Entry.objects.get()
    assert (entry.team, entry.division, entry.coach) == ("Karak Scorchers", south, team.coach)
    assert TeamSeason.objects.get().team == team
    twice = client.post(url, {"team": team.pk, "season": season.pk, "division": south.pk}, follow=True)
    assert "already entered in Season 1" in twice.content.decode() and Entry.objects.count() == 1


def test_another_leagues_choices_are_refused(client, organiser, other_organiser):
    league = db_league(organiser)
    elsewhere = db_league(other_organiser, slug="nuln")
    theirs = SeasonFactory(league=elsewhere, name="Nuln 1")
    SeasonFactory(league=league, name="Season 1")
    team = db_team(league, "Karak Scorchers")
    client.force_login(organiser)
    response = client.post(reverse("dungeonbowl:enter_team", args=[league.slug]),
                           {"team": team.pk, "season": theirs.pk}, follow=True)
    assert "Choose a season of this league." in response.content.decode() and not Entry.objects.exists()


def _changelist(model: str) -> str:
    return reverse(f"admin:dungeonbowl_{model}_changelist")


def test_the_admin_is_scoped_to_the_organisers_leagues(client, organiser, other_organiser):
    league = db_league(organiser)
    elsewhere = db_league(other_organiser, slug="nuln")
    ours, theirs = db_team(league, "Karak Scorchers"), db_team(elsewhere, "Nuln Shadows", college="college-of-shadows")
    DiceRoll.objects.create(league=league, purpose="other", dice="D6", values=[4], source="app", team=ours)
    DiceRoll.objects.create(league=elsewhere, purpose="other", dice="D6", values=[2], source="app", team=theirs)
    client.force_login(organiser)
    for model in ("team", "player", "treasuryline", "diceroll"):
        page = client.get(_changelist(model)).content.decode()
        assert "Karak Scorchers" in page and "Nuln Shadows" not in page, model
    theirs_line = TreasuryLine.objects.get(team=theirs)
    assert client.get(reverse("admin:dungeonbowl_treasuryline_change", args=[theirs_line.pk])).status_code == 302
    ours_line = TreasuryLine.objects.get(team=ours)
    page = client.get(reverse("admin:dungeonbowl_treasuryline_change", args=[ours_line.pk])).content.decode()
    assert 'name="_save"' not in page  # the ledger is read-only
    assert client.get(reverse("admin:dungeonbowl_treasuryline_add")).status_code == 403
    assert client.get(reverse("admin:dungeonbowl_diceroll_add")).status_code == 403
    player = ours.players.first()
    response = client.post(reverse("admin:dungeonbowl_player_change", args=[player.pk]),
                           {"name": "Snorri", "number": 42})
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.name, player.number, player.spp) == ("Snorri", 42, 0)


def test_the_organiser_founds_a_team_and_enters_it_from_the_admin(client, organiser):
    league = db_league(organiser)
    season = SeasonFactory(league=league, name="Season 1")
    division = Division.objects.create(season=season, name="North")
    Division.objects.create(season=season, name="South")
    coach = CoachFactory(name="Gotrek", created_by=organiser)
    client.force_login(organiser)
    add = reverse("admin:dungeonbowl_team_add")
    assert client.get(add).status_code == 200
    response = client.post(add, {"league": league.pk, "coach": coach.pk, "college": fire().pk, "name": "Karak Scorchers"})
    assert response.status_code == 302, response.content.decode()[:2000]
    team = Team.objects.get(name="Karak Scorchers")
    assert team.slug == "karak-scorchers" and team.draft_submitted_at is None
    twice = client.post(add, {"league": league.pk, "coach": coach.pk, "college": fire().pk, "name": "Other"})
    assert "already coaches a team" in twice.content.decode() and Team.objects.count() == 1

    from league.dungeonbowl.teams import services

    services.submit_draft(team=team, picks=FIRE, rerolls=1, by=organiser)
    payload = {"action": "enter_in_season", ACTION_CHECKBOX_NAME: [team.pk]}
    form = client.post(_changelist("team"), payload).content.decode()
    assert "Enter teams in a season" in form
    done = client.post(_changelist("team"), {**payload, "apply": "1", "season": season.pk, "division": division.pk},
                       follow=True).content.decode()
    assert "1 team(s) entered." in done
    assert Entry.objects.get().division == division
