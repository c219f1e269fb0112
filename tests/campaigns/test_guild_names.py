"""A Guild typed another way ("Fishermen", "Brewers", "fishermans guild", any
case) is its catalogue entry wherever a coach's Guild is typed (the organiser's
add-a-coach form, the join form, the admin's entry form: every placement goes
through one service); anything else is refused with the list of Guilds."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import CampaignCoach, Guild
from campaigns.setup import ensure_campaign, guild_name
from league.models import Coach, Entry
from league.people import joining
from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("typed, catalogue", [
    ("Fishermen", "Fisherman's"), ("fishermans guild", "Fisherman's"), ("FISHERMAN\u2019S", "Fisherman's"),
    ("Brewers", "Brewer's"), ("brewer", "Brewer's"), ("the Masons", "Mason's"), ("Union", "The Union"),
    ("Morticians Guild", "Mortician's"), ("alchemists", "Alchemist's"), ("Fishers", "Fisherman's"),
])
def test_a_guild_typed_another_way_is_its_catalogue_entry(typed, catalogue):
    assert guild_name(typed) == catalogue


def test_anything_else_is_refused_with_the_list_of_guilds():
    with pytest.raises(ValidationError) as refused:
        guild_name("Cooks")
    with pytest.raises(ValidationError):
        guild_name("The")  # the start of no Guild's name (and of every one)
    message = " ".join(refused.value.message_dict["team"])
    assert "\u201cCooks\u201d is not a Guild" in message
    assert all(guild.name in message for guild in Guild.objects.all())


def test_the_organiser_adds_a_coach_whose_guild_is_typed_another_way(client, organiser, season):
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": "Ivy Thorne", "email": "ivy@example.com", "team": "Fishermen", "enter": "on"})
    assert response.status_code == 302
    entry = Entry.objects.get(season=season, coach__name="Ivy Thorne")
    assert entry.team == "Fisherman's"
    ensure_campaign(season)
    assert CampaignCoach.objects.get(entry=entry).guild.name == "Fisherman's"  # not "-" in the campaign's tables


def test_a_guild_not_in_the_catalogue_is_refused_on_the_form_and_nothing_is_written(client, organiser, season):
    client.force_login(organiser)
    url = reverse("league:organiser_coaches", args=[season.league.slug])
    response = client.post(url, {"name": "Ivy Thorne", "email": "ivy@example.com", "team": "Cooks", "enter": "on"})
    assert response.status_code == 400
    assert response.context["form"].errors["team"]
    page = response.content.decode()
    assert "is not a Guild" in page and "Brewer&#x27;s" in page
    assert not Coach.objects.filter(name="Ivy Thorne").exists() and not Entry.objects.exists()


def test_the_join_form_takes_a_guild_any_way_it_is_typed(client, organiser, season):
    link = joining.create_link(season=season, by=organiser, max_uses=None, closes_on=None)
    client.force_login(UserFactory(username="joiner"))
    url = reverse("league:join", args=[joining.make_token(link)])
    refused = client.post(url, {"name": "Joiner", "team": "Bakers"})
    assert refused.status_code == 400 and "is not a Guild" in refused.content.decode()
    assert not Entry.objects.exists()
    assert client.post(url, {"name": "Joiner", "team": "brewers"}).status_code == 302
    assert Entry.objects.get(season=season).team == "Brewer's"
