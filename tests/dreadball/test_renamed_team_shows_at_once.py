"""A DreadBall team renamed on its page shows its new name at once on every kept
page and feed (the league page, standings.json and .csv, the fixtures page), on
every cache set-up: the rename writes the entry's team in bulk, so the season is
told it changed (league/caching/writes.py ``changed``)."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from league.dreadball.models import DreadBallTeam, TeamType

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("cache_set_up", ["local memory", "no change mark"])
def test_a_renamed_team_shows_its_new_name_on_every_kept_page(client, settings, dr_league, dr_fixture, cache_set_up):
    if cache_set_up == "no change mark":
        settings.CHANGE_MARK_FILE = ""
    coach = Client()
    coach.force_login(dr_fixture.home.coach.user)
    team_type = TeamType.objects.get(name="Draconis All-Stars")
    register = reverse("dreadball:register_team", args=[dr_league.slug])
    assert coach.post(register, {"name": "Voss Voltage", "team_type": team_type.pk}).status_code == 302
    addresses = [reverse(name, args=[dr_league.slug])
                 for name in ("league:league_detail", "league:standings_json", "league:standings_csv", "league:fixtures")]
    cache.clear()
    for address in addresses:  # kept, with the old name
        assert "Voss Voltage" in client.get(address).content.decode()

    assert coach.post(register, {"name": "Voss Thunder", "team_type": team_type.pk}).status_code == 302
    assert DreadBallTeam.objects.get(entry=dr_fixture.home).name == "Voss Thunder"
    for address in addresses:
        page = client.get(address).content.decode()
        assert "Voss Thunder" in page and "Voss Voltage" not in page, address
