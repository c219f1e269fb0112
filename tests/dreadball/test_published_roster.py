"""DR-5: a published team's roster is data. An organiser enters it
once from the Team Card (positions, stats, limits) where they manage DreadBall
teams today, the organiser's admin; every team made from the published team
afterwards starts with it instead of every player typed by hand. The seed prints
no cards, so nothing is stored until someone enters it."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from league.dreadball import services
from league.dreadball.models import DreadBallTeam, PublishedPlayer, RosterPlayer, TeamType
from tests.support.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db

STATS = ("move", "strength", "agility", "speed", "skill", "armour", "cost")


def roster_post(lines: list[dict], initial: int = 0) -> dict:
    data = {"roster-TOTAL_FORMS": str(len(lines)), "roster-INITIAL_FORMS": str(initial),
            "roster-MIN_NUM_FORMS": "0", "roster-MAX_NUM_FORMS": "1000"}
    for i, line in enumerate(lines):
        data.update({f"roster-{i}-{key}": str(value) for key, value in line.items()})
    return data


JACK = {"order": 1, "name": "Jack", "role": "jack", "move": 5, "strength": 4, "agility": 4, "speed": 4, "skill": 4,
        "armour": 4, "cost": 9, "starting": 2, "maximum": 4}
STRIKER = {"order": 2, "name": "Striker", "role": "striker", "move": 6, "strength": 5, "agility": 3, "speed": 4,
           "skill": 3, "armour": 5, "cost": 12, "starting": 1, "maximum": 2}


def allstars() -> TeamType:
    return TeamType.objects.get(name="Draconis All-Stars")


def test_the_seed_stores_no_published_players():
    assert not PublishedPlayer.objects.exists()


def test_an_organiser_enters_a_roster_once_and_every_new_team_starts_with_it(client, organiser, dr_fixture):
    client.force_login(organiser)
    url = reverse("admin:dreadball_teamtype_change", args=[allstars().pk])
    page = client.get(url).content.decode()
    assert "Published roster lines" in page and "Starting players" in page
    response = client.post(url, roster_post([JACK, STRIKER]))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert list(PublishedPlayer.objects.values_list("name", "starting", "maximum")) == [("Jack", 2, 4), ("Striker", 1, 2)]
    assert allstars().name == "Draconis All-Stars"  # the published team's own fields stay the superuser's

    # A team made in the organiser's admin, no player typed: it starts with the roster.
    response = client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": allstars().pk,
        "players-TOTAL_FORMS": "0", "players-INITIAL_FORMS": "0", "players-MIN_NUM_FORMS": "0",
        "players-MAX_NUM_FORMS": "1000",
    })
    assert response.status_code == 302
    team = DreadBallTeam.objects.get(entry=dr_fixture.home)
    players = {p.name: (p.role, *(getattr(p, stat) for stat in STATS)) for p in team.players.all()}
    assert players == {
        "Jack 1": ("jack", 5, 4, 4, 4, 4, 4, 9), "Jack 2": ("jack", 5, 4, 4, 4, 4, 4, 9),
        "Striker": ("striker", 6, 5, 3, 4, 3, 5, 12),
    }
    coach_page = client.get(reverse("league:coach_detail", args=[dr_fixture.round.season.league.slug,
                                                                 dr_fixture.home.coach.pk])).content.decode()
    assert "3 players · 30 mc" in coach_page and "Jack 2" in coach_page

    # The service (the demo's and any later site path) copies it too; a later edit of
    # the roster changes no team already made.
    away = services.register_team(entry=dr_fixture.away, name="Rell Riptide", team_type=allstars(),
                                  by=dr_fixture.away.coach.user)
    assert sorted(away.players.values_list("name", flat=True)) == ["Jack 1", "Jack 2", "Striker"]
    PublishedPlayer.objects.filter(name="Jack").update(cost=11)
    assert set(team.players.filter(role="jack").values_list("cost", flat=True)) == {9}
    # Renaming a team later copies nothing again.
    services.register_team(entry=dr_fixture.away, name="Rell Riptide II", team_type=allstars(), by=None)
    assert away.players.count() == 3


def test_players_typed_by_hand_are_kept_instead(client, organiser, dr_fixture):
    PublishedPlayer.objects.create(team_type=allstars(), **{k: v for k, v in JACK.items()})
    client.force_login(organiser)
    response = client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": allstars().pk,
        "players-TOTAL_FORMS": "1", "players-INITIAL_FORMS": "0", "players-MIN_NUM_FORMS": "0",
        "players-MAX_NUM_FORMS": "1000", "players-0-name": "Romeo Blue", "players-0-role": "striker",
        "players-0-move": "6", "players-0-strength": "5", "players-0-agility": "4", "players-0-speed": "4",
        "players-0-skill": "3", "players-0-armour": "5", "players-0-cost": "12",
    })
    assert response.status_code == 302
    assert list(RosterPlayer.objects.values_list("name", flat=True)) == ["Romeo Blue"]


def test_who_enters_a_roster(client, organiser, other_organiser, dr_fixture):
    url = reverse("admin:dreadball_teamtype_change", args=[allstars().pk])
    # A coach is no staff; another game's organiser makes no DreadBall team.
    client.force_login(dr_fixture.home.coach.user)
    assert client.post(url, roster_post([JACK])).status_code == 302  # to the admin's login
    LeagueFactory(slug="gb", game_system="guildball", organisers=[other_organiser])
    client.force_login(other_organiser)
    assert client.post(url, roster_post([JACK])).status_code == 403
    assert not PublishedPlayer.objects.exists()
    # The superuser edits the published team itself as well.
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    response = client.post(url, {"name": "Draconis All-Stars", "race": "Robots", "notes": "Boxed game.",
                                 **roster_post([STRIKER])})
    assert response.status_code == 302 and PublishedPlayer.objects.get().name == "Striker"


def test_a_roster_line_out_of_bounds_is_refused(client, organiser, dr_fixture):
    client.force_login(organiser)
    url = reverse("admin:dreadball_teamtype_change", args=[allstars().pk])
    for bad in ({**JACK, "starting": 5}, {**JACK, "skill": 7}, {**JACK, "maximum": 0}, {**JACK, "cost": 51}):
        response = client.post(url, roster_post([bad]))
        assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert "A team starts with at most the limit of 4." in client.post(url, roster_post([{**JACK, "starting": 5}])).content.decode()
    assert not PublishedPlayer.objects.exists()
    for values in ({"starting": 5, "maximum": 4}, {"maximum": 21, "starting": 1}, {"move": 0}):
        with pytest.raises(IntegrityError), transaction.atomic():
            PublishedPlayer.objects.create(team_type=allstars(), **{**JACK, **values})


def test_the_admin_lists_roster_lines(client, organiser):
    PublishedPlayer.objects.create(team_type=allstars(), **JACK)
    client.force_login(organiser)
    page = client.get(reverse("admin:dreadball_teamtype_changelist")).content.decode()
    assert "Roster lines" in page
