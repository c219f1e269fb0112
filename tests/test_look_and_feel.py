"""Words and marks for people: dates as people say them, rule ids as small links to
/rules/, display names, the favicon, the league navigation, calendar links from
the request, a reload of a form's address never a 405, styled error pages."""

from __future__ import annotations

import datetime

import pytest
from django.template import Context, Template
from django.urls import reverse

from league.rules import rulebook
from league.web.reload import page_above
from league.templatetags.site_tags import display_name, rule, say_date
from tests.support.factories import CoachFactory, EntryFactory, FixtureFactory, UserFactory

TODAY = datetime.date(2026, 3, 3)  # a Tuesday


@pytest.mark.parametrize(
    "day, said",
    [
        (TODAY, "today"),
        (TODAY + datetime.timedelta(days=1), "tomorrow"),
        (TODAY - datetime.timedelta(days=1), "yesterday"),
        (datetime.date(2026, 3, 10), "Tue 10 Mar"),
        (datetime.date(2025, 12, 30), "Tue 30 Dec 2025"),
    ],
)
def test_dates_as_people_say_them(day, said):
    assert say_date(day, TODAY) == said


def test_when_wraps_the_date_in_a_time_element():
    html = Template("{% load site_tags %}{{ d|when }}").render(Context({"d": datetime.date(2020, 1, 7)}))
    assert html == '<time datetime="2020-01-07" title="Tuesday 7 January 2020">Tue 7 Jan 2020</time>'


def test_rule_filter_links_known_ids_only():
    assert rule("GB-9") == '<a class="rule" href="/rules/#GB-9">GB-9</a>'
    assert rule("DB-5a") == '<a class="rule" href="/rules/#DB-5a">DB-5a</a>'
    assert rule("<script>") == "<script>"  # not an id: returned as text, escaped by the template


def test_every_rule_id_in_rules_md_has_a_summary():
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
    if not path.exists():
        pytest.skip("../shared/RULES.md is not next to the repository")
    ids = set(re.findall(r"^- ((?:GB|DB|DR)-\d+[a-z]?) ", path.read_text(), flags=re.MULTILINE))
    assert ids and ids <= set(rulebook.by_id())


def test_the_engine_holds_its_own_rule_ids_and_each_game_its_own():
    families = {section.key: {rule.id.split("-")[0] for rule in section.rules} for section in rulebook.sections()}
    assert {rule.id.split("-")[0] for rule in rulebook.ENGINE.rules} == {"LG"}
    assert {key: families[key] for key in ("seasons", "guildball", "bigleague", "dungeonbowl", "dreadball")} == {
        "seasons": {"LG"}, "guildball": {"GB"}, "bigleague": {"GB"}, "dungeonbowl": {"DB"}, "dreadball": {"DR"},
    }


@pytest.mark.django_db
def test_rules_page_lists_ids_with_anchors(client):
    page = client.get(reverse("rules")).content.decode()
    for rule_id in ("GB-9", "DB-5a", "DR-4"):
        assert f'id="{rule_id}"' in page
    assert rulebook.by_id()["GB-7"].summary in page


@pytest.mark.django_db
def test_display_name_is_the_coachs_name():
    coach = CoachFactory(name="Ada Blackwater")
    assert display_name(coach.user) == "Ada Blackwater"
    assert display_name(UserFactory(username="plainuser")) == "plainuser"


@pytest.mark.django_db
def test_favicon_and_league_nav(client, season, organiser):
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page
    assert 'class="league-nav"' in page and '<strong aria-current="page">Standings</strong>' in page
    assert "Organiser</a>" not in page
    client.force_login(organiser)
    page = client.get(reverse("league:league_detail", args=[season.league.slug])).content.decode()
    assert f'href="{reverse("league:organiser_dashboard", args=[season.league.slug])}">Organiser</a>' in page
    assert client.get("/static/favicon.svg").status_code == 200


@pytest.mark.django_db
def test_fixture_history_names_people_by_display_name(client, season, organiser):
    fixture = FixtureFactory(round__season=season, round__number=1, home__coach__name="Velocity", away__coach__name="Rage")
    client.force_login(fixture.home.coach.user)
    client.post(reverse("league:report_result", args=[fixture.pk]), {"home_score": 12, "away_score": 4})
    page = client.get(fixture.get_absolute_url()).content.decode()
    history = page.split("<h2>History</h2>")[1]
    assert "by Velocity" in history and f"by {fixture.home.coach.user.username}<" not in history


@pytest.mark.django_db
def test_calendar_links_use_the_request_when_site_url_is_unset(client, season, settings):
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["league.example.org"]
    fixture = FixtureFactory(round__season=season)
    body = client.get(reverse("league:league_ics", args=[season.league.slug]), HTTP_HOST="league.example.org").content.decode()
    assert f"URL:http://league.example.org{fixture.get_absolute_url()}" in body
    # The link follows the request; the event's UID does not (the same whatever the host).
    assert "@league.example.org" not in body and f"UID:fixture-{fixture.pk}@" in body
    coach = client.get(
        reverse("league:coach_ics", args=[season.league.slug, fixture.home.coach_id]), HTTP_HOST="league.example.org"
    ).content.decode()
    assert f"URL:http://league.example.org{fixture.get_absolute_url()}" in coach
    settings.SITE_URL = "https://leagues.example.com"
    body = client.get(reverse("league:league_ics", args=[season.league.slug]), HTTP_HOST="league.example.org").content.decode()
    assert f"URL:https://leagues.example.com{fixture.get_absolute_url()}" in body


@pytest.mark.django_db
def test_reload_of_a_campaign_action_goes_to_its_page(client, season, organiser):
    EntryFactory(season=season)
    client.force_login(organiser)
    response = client.get(reverse("campaigns:buy_advancement", args=[season.league.slug]))
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:campaign_table", args=[season.league.slug])


@pytest.mark.django_db
def test_page_above():
    assert page_above("/fixtures/7/report/") == "/fixtures/7/"
    assert page_above("/leagues/x/campaign/unlocks/5/pick/") == "/leagues/x/campaign/"
    assert page_above("/health/") is None


@pytest.mark.django_db
@pytest.mark.parametrize("status, url", [(404, "/no/such/page/"), (403, None)])
def test_error_pages_are_styled_with_a_way_back(client, season, status, url):
    if url is None:  # a coach opening the organiser's dashboard
        client.force_login(EntryFactory(season=season).coach.user)
        url = reverse("league:organiser_dashboard", args=[season.league.slug])
    response = client.get(url)
    assert response.status_code == status
    page = response.content.decode()
    assert "Back to the leagues" in page and 'class="site-header"' in page


@pytest.mark.django_db
def test_json_urls_get_a_json_404(client):
    response = client.get("/leagues/nope/standings.json")
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
