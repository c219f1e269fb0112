"""DR-5 in the admin: a DreadBall team is registered, renamed and given players
through the site's own services (``register_team``, ``add_player``), so the admin
writes what the team page writes: the entry's name for the engine's pages, the
published roster for a new team with no player typed, and players within DR-5's
bounds."""

import pytest
from django.urls import reverse

from league.dreadball.models import DreadBallTeam, PublishedPlayer, RosterPlayer, TeamType
from league.models import Entry

pytestmark = pytest.mark.django_db

STRIKER = {"name": "Romeo Blue", "role": "striker", "move": "6", "strength": "5", "agility": "4", "speed": "4",
           "skill": "3", "armour": "5", "cost": "12"}


def players(rows: list[dict], initial: list[RosterPlayer] = ()) -> dict:
    data = {"players-TOTAL_FORMS": str(len(initial) + len(rows)), "players-INITIAL_FORMS": str(len(initial)),
            "players-MIN_NUM_FORMS": "0", "players-MAX_NUM_FORMS": "1000"}
    for i, player in enumerate(initial):
        data.update({f"players-{i}-id": str(player.pk), f"players-{i}-team": str(player.team_id)})
        data.update({f"players-{i}-{field}": str(getattr(player, field)) for field in STRIKER})
    for i, row in enumerate(rows, start=len(initial)):
        data.update({f"players-{i}-{key}": value for key, value in row.items()})
    return data


def robots() -> TeamType:
    return TeamType.objects.get(name="Draconis All-Stars")


def test_a_team_added_in_the_admin_is_registered_as_on_the_site(client, organiser, dr_fixture):
    PublishedPlayer.objects.create(team_type=robots(), order=1, name="Jack", role="jack", move=5, strength=4,
                                   agility=4, speed=4, skill=4, armour=4, cost=9, starting=2, maximum=4)
    client.force_login(organiser)
    response = client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss    Voltage", "team_type": robots().pk, **players([]),
    })
    assert response.status_code == 302
    team = DreadBallTeam.objects.get(entry=dr_fixture.home)
    assert team.name == "Voss Voltage"  # the service's spacing, as on the team page
    assert Entry.objects.get(pk=dr_fixture.home.pk).team == "Voss Voltage"
    assert sorted(team.players.values_list("name", flat=True)) == ["Jack 1", "Jack 2"]


def test_a_typed_player_is_checked_by_the_service_and_a_refusal_writes_nothing(client, organiser, dr_fixture):
    client.force_login(organiser)
    row = {**STRIKER, "name": "Romeo   Blue"}
    response = client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": robots().pk,
        **players([row, {**STRIKER, "name": "Romeo Blue "}]),
    }, follow=True)
    assert "Voss Voltage already has a player called Romeo Blue." in response.content.decode()
    assert not DreadBallTeam.objects.exists() and not RosterPlayer.objects.exists()
    assert Entry.objects.get(pk=dr_fixture.home.pk).team == "Voss Voltage"  # the fixture's, untouched

    response = client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": robots().pk, **players([row]),
    })
    assert response.status_code == 302
    assert list(RosterPlayer.objects.values_list("name", flat=True)) == ["Romeo Blue"]


def test_renaming_a_team_and_adding_a_player_in_the_admin_go_through_the_services(client, organiser, dr_fixture):
    client.force_login(organiser)
    client.post(reverse("admin:dreadball_dreadballteam_add"), {
        "entry": dr_fixture.home.pk, "name": "Voss Voltage", "team_type": robots().pk, **players([STRIKER]),
    })
    team = DreadBallTeam.objects.get()
    response = client.post(reverse("admin:dreadball_dreadballteam_change", args=[team.pk]), {
        "name": "Voss  Voltage II", "team_type": robots().pk,
        **players([{**STRIKER, "name": "Tia   Nova", "role": "jack"}], initial=list(team.players.all())),
    })
    assert response.status_code == 302, response.content.decode()[:3000]
    assert DreadBallTeam.objects.get().name == "Voss Voltage II"
    assert Entry.objects.get(pk=dr_fixture.home.pk).team == "Voss Voltage II"
    assert sorted(team.players.values_list("name", "role")) == [("Romeo Blue", "striker"), ("Tia Nova", "jack")]
