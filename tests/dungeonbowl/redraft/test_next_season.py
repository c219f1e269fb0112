"""The commissioner opens the next Dungeon Bowl season (DB-3) with the re-drafted
teams (DB-15) and the new ones, divisions kept or drawn again (DB-2), fixtures
generated; the season that ended stays as it was."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse

from league.dungeonbowl.redraft import selectors as redraft_selectors, services as redraft
from league.dungeonbowl.teams import services
from league.dungeonbowl.models import College, Position, Redraft, Team, TeamSeason
from league.models import Entry, Fixture, Result, Season
from tests.dungeonbowl.builders import db_league, db_team
from tests.dungeonbowl.offseason import finished_season
from tests.support.factories import PASSWORD, CoachFactory

pytestmark = pytest.mark.django_db


def login(client, user):
    assert client.login(request=HttpRequest(), username=user.username, password=PASSWORD)


def redraft_keeping_everyone(team, by):
    """DB-15 run through: app rolls, everyone re-hired who is still there, re-rolls kept."""
    redraft.scout(team=team, by=by)
    redraft.recover(team=team, by=by)
    redraft.raise_funds(team=team, by=by)
    keep = list(team.players.on_draft_list().values_list("pk", flat=True))
    return redraft.redraft_team(team=team, by=by, rehire=keep, rookies=[], rerolls=team.rerolls)


@pytest.fixture
def season(organiser):
    return finished_season(organiser, teams=8, divisions=2)


def url(league):
    return reverse("dungeonbowl:next_season", args=[league.slug])


def test_only_the_commissioner_sees_and_opens_it(client, organiser, other_organiser, season):
    league = season.league
    response = client.get(url(league))
    assert response.status_code == 302 and "login" in response["Location"]
    login(client, Team.objects.filter(league=league).first().coach.user)
    assert client.get(url(league)).status_code == 403
    assert client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).status_code == 403
    client.logout()
    db_league(other_organiser, slug="elsewhere")
    login(client, other_organiser)
    assert client.get(url(league)).status_code == 403
    assert client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).status_code == 403
    client.logout()
    login(client, organiser)
    page = client.get(url(league)).content.decode()
    assert "Still re-drafting" in page and "Team 01" in page
    # Nobody re-drafted yet: refused with the reason, nothing created.
    page = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"}).content.decode()
    assert "at least 4 teams" in page and Season.objects.filter(league=league).count() == 1


def test_redrafted_and_new_teams_enter_in_the_kept_divisions(client, organiser, season):
    league = season.league
    teams = list(Team.objects.filter(league=league).order_by("name"))
    before = {d.name: set(Entry.objects.filter(division=d).values_list("team", flat=True)) for d in season.divisions.all()}
    retiring = teams[0]
    for team in teams[1:]:
        redraft_keeping_everyone(team, organiser)
    redraft.retire_team(team=retiring, by=retiring.coach.user)
    fresh = db_team(league, "Second Wind", coach=retiring.coach)  # DB-15: a coach who did not re-draft drafts anew
    newcomer = db_team(league, "New Blood", college="college-of-shadows", coach=CoachFactory(name="Newcomer"))
    # DB-1: the league's own coach's team is accepted at once, a newcomer's waits;
    # neither enters before the commissioner locks its draft.
    assert fresh.accepted and not newcomer.accepted
    plan = redraft_selectors.next_season(league)
    assert {t.name for t in plan.unaccepted} == {"Second Wind", "New Blood"}
    services.lock_draft(team=fresh, by=organiser)
    services.lock_draft(team=newcomer, by=organiser)  # locking a waiting team's draft accepts it
    plan = redraft_selectors.next_season(league)
    assert {t.name for t in plan.ready} == {t.name for t in teams[1:]} | {"Second Wind", "New Blood"} and not plan.waiting
    assert not plan.unaccepted

    login(client, organiser)
    response = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"})
    assert response.status_code == 302
    second = Season.objects.get(league=league, name="Season 2")
    assert second.entries.count() == 9
    assert set(TeamSeason.objects.filter(entry__season=second).values_list("team__name", flat=True)) == (
        {t.name for t in teams[1:]} | {"Second Wind", "New Blood"})
    after = {d.name: set(Entry.objects.filter(division=d).values_list("team", flat=True)) for d in second.divisions.all()}
    assert set(after) == set(before)
    for name, members in before.items():
        assert members - {retiring.name} <= after[name]
    assert sorted(len(m) for m in after.values()) == [4, 5]
    sizes = [len(m) for m in sorted(after.values(), key=len)]
    assert Fixture.objects.filter(round__season=second, away__isnull=False).count() == sum(n * (n - 1) // 2 for n in sizes)
    # The season that ended is untouched: its entries, games and results stay.
    assert season.entries.count() == 8
    assert Result.objects.filter(fixture__round__season=season, status="approved").count() == 12
    # Its off-season is closed: no correction once the next season has started.
    with pytest.raises(ValidationError, match="no re-draft under way"):
        redraft.go_back(team=teams[1], to=1, by=organiser)
    assert Redraft.objects.filter(season=season, step=5).count() == 7


def test_divisions_drawn_again_or_none(client, organiser, season):
    league = season.league
    for team in Team.objects.filter(league=league):
        redraft_keeping_everyone(team, organiser)
    opened = redraft.open_next_season(league=league, by=organiser, name="Season 2",
                                      start_date=datetime.date(2027, 9, 1), divisions=0, seed=1)
    assert not opened.divisions.exists() and Fixture.objects.filter(round__season=opened, away__isnull=False).count() == 28
    with pytest.raises(ValidationError, match="opens once this season is over"):
        redraft.open_next_season(league=league, by=organiser, name="Season 3", start_date=datetime.date(2028, 9, 1))


def test_strangers_teams_wait_for_the_commissioner_and_do_not_enter_the_next_season(client, organiser, season):
    """DB-1, against strangers: four logged-in users who play in no
    season of the league found teams and submit drafts through the site, and the
    commissioner opens the next season. Founding needs the commissioner's
    acceptance: their teams wait, the next-season page lists them as waiting and
    not among the teams that enter, and a season of outsiders cannot open. Once
    the commissioner accepts two and locks their drafts, those two are listed to
    enter; a refused one is gone with its draft."""
    league = season.league
    slayer = Position.objects.get(name="Troll Slayer")
    lineman = Position.objects.get(name="Dwarf Blocker Lineman")
    fire = College.objects.get(slug="college-of-fire")
    strangers = [CoachFactory(name=f"Stranger {n}") for n in range(4)]
    for n, stranger in enumerate(strangers):
        client.force_login(stranger.user)
        founded = client.post(reverse("dungeonbowl:create_team", args=[league.slug]),
                              {"name": f"Outsiders {n}", "college": fire.pk}, follow=True).content.decode()
        assert "waits for the organiser to accept it" in founded
        response = client.post(reverse("dungeonbowl:draft", args=[league.slug]),
                               {"rerolls": 2, f"pos_{slayer.pk}": 1, f"pos_{lineman.pk}": 10, "submit": "1"})
        assert response.status_code == 302
        # Accepting is the commissioner's: the stranger's own POST is refused.
        team = Team.objects.get(league=league, coach=stranger)
        assert client.post(reverse("dungeonbowl:accept_team", args=[league.slug, team.slug])).status_code == 403
    outsiders = list(Team.objects.filter(coach__in=strangers).order_by("name"))
    assert len(outsiders) == 4 and all(t.draft_submitted_at and not t.accepted for t in outsiders)
    assert redraft_selectors.next_season(league).ready == []

    login(client, organiser)
    page = client.get(url(league)).content.decode()
    assert "No team is ready yet." in page
    assert "New teams you have not accepted" in page
    assert all(f"Outsiders {n}</a> (Stranger {n}): waits for your acceptance" in page for n in range(4))
    client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"})
    assert Season.objects.filter(league=league).count() == 1  # no Season Two of outsiders

    # The draft page lists them for the commissioner to accept or refuse.
    draft_page = client.get(reverse("dungeonbowl:draft", args=[league.slug])).content.decode()
    assert "Teams waiting for your acceptance" in draft_page and "Outsiders 3" in draft_page
    first, second, third = outsiders[:3]
    done = client.post(reverse("dungeonbowl:accept_team", args=[league.slug, first.slug]), follow=True).content.decode()
    assert "Outsiders 0 is accepted into the league." in done
    first.refresh_from_db()
    assert first.accepted and first.accepted_by == organiser and not first.draft_locked
    assert first not in redraft_selectors.next_season(league).ready  # accepted, draft not locked yet
    client.post(reverse("dungeonbowl:lock_draft", args=[league.slug, first.slug]))
    client.post(reverse("dungeonbowl:lock_draft", args=[league.slug, second.slug]))  # accepts it too
    second.refresh_from_db()
    assert second.accepted and second.draft_locked
    # Refusing removes a waiting team, only once the box is ticked.
    kept = client.post(reverse("dungeonbowl:refuse_team", args=[league.slug, third.slug]), follow=True).content.decode()
    assert "Tick the box to confirm that Outsiders 2 is to be removed." in kept and Team.objects.filter(pk=third.pk).exists()
    gone = client.post(reverse("dungeonbowl:refuse_team", args=[league.slug, third.slug]), {"confirm": "yes"},
                       follow=True).content.decode()
    assert "Outsiders 2 is refused and removed." in gone and not Team.objects.filter(pk=third.pk).exists()
    refused = client.post(reverse("dungeonbowl:refuse_team", args=[league.slug, first.slug]), {"confirm": "yes"},
                          follow=True).content.decode()
    assert "Outsiders 0 is accepted in the league; it can only retire" in refused and Team.objects.filter(pk=first.pk).exists()

    plan = redraft_selectors.next_season(league)
    assert [t.name for t in plan.ready] == ["Outsiders 0", "Outsiders 1"]
    assert [t.name for t in plan.unaccepted] == ["Outsiders 3"]
    page = client.get(url(league)).content.decode()
    assert "Outsiders 0</a> (College of Fire, Stranger 0)" in page and "Outsiders 3</a> (Stranger 3): waits" in page


def test_a_refused_next_season_answers_400_with_each_reason_once_in_plain_english(client, organiser, season):
    """The form answers 400 as every refused form does; the reason
    appears once ("1 team is ready"); the date picker shows the start date (ISO)."""
    league = season.league
    redraft_keeping_everyone(Team.objects.filter(league=league).order_by("name").first(), organiser)
    login(client, organiser)
    page = client.get(url(league)).content.decode()
    assert f'type="date" name="start_date" value="{datetime.date.today().isoformat()}"' in page
    response = client.post(url(league), {"name": "Season 2", "start_date": "2027-09-01", "divisions": "keep"})
    page = response.content.decode()
    assert response.status_code == 400
    assert page.count("A season needs at least 4 teams; 1 is ready.") == 1 and "are ready" not in page
    assert 'value="2027-09-01"' in page  # what was typed stays, in the picker's format
    response = client.post(url(league), {"name": "", "start_date": "not a date", "divisions": "keep"})
    assert response.status_code == 400 and "Name the new season." in response.content.decode()
    assert Season.objects.filter(league=league).count() == 1
