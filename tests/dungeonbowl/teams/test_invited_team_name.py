"""The team name the organiser gave a coach when adding or inviting them is where
the coach's team registration starts: Dungeon Bowl's new team and draft forms,
DreadBall's team registration (tests/dreadball/test_views.py has DreadBall's)."""

import pytest
from django.urls import reverse

from league.models import Coach
from tests.dungeonbowl.builders import db_league, db_team
from tests.support.factories import SeasonFactory, UserFactory

pytestmark = pytest.mark.django_db


def invited_with_team(client, organiser, league, team: str) -> Coach:
    """The organiser adds a coach with a team name on the Coaches page; the coach
    then has an account (as after accepting the invitation)."""
    client.force_login(organiser)
    response = client.post(reverse("league:organiser_coaches", args=[league.slug]),
                           {"name": "Ivy Thorne", "email": "ivy@example.com", "team": team, "enter": "on"})
    assert response.status_code == 302
    coach = Coach.objects.get(name="Ivy Thorne")
    coach.user = UserFactory(username="ivy")
    coach.save(update_fields=["user"])
    client.force_login(coach.user)
    return coach


def test_the_new_team_and_draft_forms_start_with_the_invitations_team_name(client, organiser):
    league = db_league(organiser)
    SeasonFactory(league=league, name="Season 1")
    invited_with_team(client, organiser, league, "Ember Owls")
    new_team = client.get(reverse("dungeonbowl:create_team", args=[league.slug]))
    assert new_team.context["form"]["name"].value() == "Ember Owls"
    assert 'value="Ember Owls"' in new_team.content.decode()
    draft = client.get(reverse("dungeonbowl:draft", args=[league.slug]))
    assert draft.context["form"]["name"].value() == "Ember Owls"


def test_a_team_already_founded_with_that_name_is_not_offered_again(client, organiser):
    league = db_league(organiser)
    SeasonFactory(league=league, name="Season 1")
    coach = invited_with_team(client, organiser, league, "Ember Owls")
    db_team(league, "Ember Owls", coach=coach)
    assert client.get(reverse("dungeonbowl:create_team", args=[league.slug])).context["form"]["name"].value() == ""
