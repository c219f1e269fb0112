"""DreadBall: a coach entered in a season registers their team on
the site (DR-5), told so on /me/ and on the league page; the organiser may do it
for any coach of the season; nobody else can."""

import pytest
from django.urls import reverse

from league.dreadball.models import DreadBallTeam, TeamType
from tests.support.factories import EntryFactory

pytestmark = pytest.mark.django_db


def url(league):
    return reverse("dreadball:register_team", args=[league.slug])


def robots():
    return TeamType.objects.get(name="Draconis All-Stars")


def test_the_coach_is_told_and_registers_the_team(client, dr_league, dr_season):
    entry = EntryFactory(season=dr_season, coach__name="Dana", team="")
    client.force_login(entry.coach.user)
    assert url(dr_league) in client.get(reverse("league:my_fixtures")).content.decode()
    assert url(dr_league) in client.get(dr_league.get_absolute_url()).content.decode()
    refused = client.post(url(dr_league), {"name": "", "team_type": robots().pk})
    assert refused.status_code == 400 and "Give the team a name." in refused.content.decode()
    assert not DreadBallTeam.objects.exists()
    response = client.post(url(dr_league), {"name": "Voss Voltage", "team_type": robots().pk})
    assert response.status_code == 302
    team = DreadBallTeam.objects.get()
    assert (team.entry, team.name, team.team_type) == (entry, "Voss Voltage", robots())
    entry.refresh_from_db()
    assert entry.team == "Voss Voltage"
    assert url(dr_league) not in client.get(reverse("league:my_fixtures")).content.decode()
    assert url(dr_league) not in client.get(dr_league.get_absolute_url()).content.decode()


def test_every_role(client, dr_league, dr_season, organiser, other_organiser, outsider):
    entry = EntryFactory(season=dr_season, coach__name="Dana", team="")
    other = EntryFactory(season=dr_season, coach__name="Tavi", team="")
    data = {"name": "Voss Voltage", "team_type": robots().pk}
    assert client.post(url(dr_league), data).status_code == 302  # anonymous: log in
    for user in (outsider, other_organiser):
        client.force_login(user)
        assert client.get(url(dr_league)).status_code == 403
        assert client.post(url(dr_league), data).status_code == 403
    assert not DreadBallTeam.objects.exists()
    client.force_login(other.coach.user)  # the wrong coach registers only their own team
    assert client.post(url(dr_league), {**data, "entry": entry.pk}).status_code == 302
    assert DreadBallTeam.objects.get().entry == other
    client.force_login(organiser)
    page = client.get(url(dr_league)).content.decode()
    assert "Coach" in page and "Dana" in page
    assert client.post(url(dr_league), {**data, "name": "Dana's Dome"}).status_code == 400  # which coach?
    assert client.post(url(dr_league), {**data, "name": "Dana's Dome", "entry": entry.pk}).status_code == 302
    assert DreadBallTeam.objects.get(entry=entry).name == "Dana's Dome"


def test_another_games_league_is_a_404(client, organiser):
    from tests.support.factories import LeagueFactory, SeasonFactory

    league = LeagueFactory(slug="gb", organisers=[organiser])
    SeasonFactory(league=league)
    client.force_login(organiser)
    assert client.get(url(league)).status_code == 404
