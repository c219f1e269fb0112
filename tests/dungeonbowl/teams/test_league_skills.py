"""A Dungeon Bowl league's own skills (DB-11): its organiser adds a skill the
site's list lacks and changes it on the site; every league's skills are shown
beside, read-only; the league's advancement list offers it, another league's
does not; nobody else writes."""

import pytest
from django.urls import reverse

from league.dungeonbowl.models import Skill
from league.dungeonbowl.spending.forms import AdvanceForm
from tests.dungeonbowl.builders import db_league, db_team
from tests.support.factories import LeagueFactory, UserFactory

pytestmark = pytest.mark.django_db


def url(league):
    return reverse("dungeonbowl:league_skills", args=[league.slug])


def test_the_organiser_adds_a_skill_and_only_this_leagues_teams_can_learn_it(client, organiser):
    league = db_league(organiser)
    client.force_login(organiser)
    settings_page = client.get(reverse("league:organiser_settings", args=[league.slug])).content.decode()
    assert f'href="{url(league)}"' in settings_page
    shared = Skill.objects.filter(league__isnull=True).first()
    assert shared is not None and shared.label in client.get(url(league)).content.decode()
    response = client.post(url(league), {"new-name": "  Glowing   Runes ", "new-category": "M"})
    assert response.status_code == 302
    runes = Skill.objects.get(name="Glowing Runes")
    assert (runes.league, runes.category) == (league, "M")
    assert 'value="Glowing Runes"' in client.get(url(league)).content.decode()
    team = db_team(league, "Ember Owls")
    assert runes in AdvanceForm(team=team).fields["skill"].queryset
    other = db_league(UserFactory(username="elsewhere"), slug="elsewhere")
    assert runes not in AdvanceForm(team=db_team(other, "Gloom Ravens")).fields["skill"].queryset


def test_the_organiser_changes_their_skill_but_not_every_leagues(client, organiser):
    league = db_league(organiser)
    runes = Skill.objects.create(name="Glowing Runes", category="M", league=league)
    shared = Skill.objects.filter(league__isnull=True).first()
    client.force_login(organiser)
    response = client.post(url(league), {"skill": runes.pk, f"skill{runes.pk}-name": "Bright Runes",
                                         f"skill{runes.pk}-category": "G"})
    assert response.status_code == 302
    runes.refresh_from_db()
    assert (runes.name, runes.category) == ("Bright Runes", "G")
    response = client.post(url(league), {"skill": shared.pk, f"skill{shared.pk}-name": "Mine",
                                         f"skill{shared.pk}-category": "G"})
    assert response.status_code == 400
    assert "Choose one of the league&#x27;s own skills to change." in response.content.decode()
    assert Skill.objects.get(pk=shared.pk).name == shared.name


def test_a_name_already_on_the_list_or_a_bad_category_is_refused(client, organiser):
    league = db_league(organiser)
    shared = Skill.objects.filter(league__isnull=True).first()
    client.force_login(organiser)
    response = client.post(url(league), {"new-name": shared.name.upper(), "new-category": ""})
    assert response.status_code == 400
    assert "The league&#x27;s skill list has" in response.content.decode()
    assert client.post(url(league), {"new-name": "Odd", "new-category": "Z"}).status_code == 400
    assert client.post(url(league), {"new-name": "x" * 41, "new-category": ""}).status_code == 400
    assert not Skill.objects.filter(league=league).exists()


def test_every_role(client, organiser, other_organiser):
    league = db_league(organiser)
    coach = db_team(league, "Ember Owls").coach.user
    assert client.get(url(league)).status_code == 302
    for user in (coach, other_organiser, UserFactory(username="nobody")):
        client.force_login(user)
        assert client.get(url(league)).status_code == 403
        assert client.post(url(league), {"new-name": "Sneaky", "new-category": ""}).status_code == 403
    assert not Skill.objects.filter(league=league).exists()
    gb = LeagueFactory(name="Harbour", slug="harbour", organisers=[organiser])
    client.force_login(organiser)
    assert client.get(url(gb)).status_code == 404
