"""The organiser's settings page: the league's name and description, its game's
settings (locked where the rules fix them once results exist), its webhooks with
a test message, and its organisers; for every role, with bad input refused whole."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from league.dreadball.models import DreadBallSettings
from league.dungeonbowl.models import DungeonBowlSettings
from league.guildball.models import GuildBallSettings
from league.models import League
from league.events.delivery import LEAGUE_SIGNATURE_HEADER, league_signature
from league.events.models import Delivery
from tests.support.builders import season_with_results
from tests.support.factories import CoachFactory, EntryFactory, LeagueFactory, SeasonFactory, UserFactory
from tests.support.receiver import Receiver

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/123/abc"


def url(league: League) -> str:
    return reverse("league:organiser_settings", args=[league.slug])


@pytest.fixture
def founder(db):
    """An organiser who signed up on the site: not staff, in no group."""
    return UserFactory(username="founder")


@pytest.fixture
def gb(founder):
    league = LeagueFactory(name="Harbour League", slug="harbour", organisers=[founder], description="Thursdays.")
    GuildBallSettings.objects.create(league=league, vp_target=12)
    SeasonFactory(league=league, name="Season 1")
    return league


def logged_in(client, user):
    client.force_login(user)
    return client


def post(client, league, section, **data):
    return client.post(url(league), {"section": section, **data})


# Who may see it ---------------------------------------------------------------------


def test_anonymous_is_sent_to_log_in(client, gb):
    response = client.get(url(gb))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_coach_of_the_league_is_refused(client, gb):
    coach = EntryFactory(season=gb.seasons.get(), coach=CoachFactory(name="Ivy Thorne")).coach
    logged_in(client, coach.user)
    assert client.get(url(gb)).status_code == 403
    assert post(client, gb, "league", name="Taken Over", description="").status_code == 403
    gb.refresh_from_db()
    assert gb.name == "Harbour League"


def test_another_leagues_organiser_is_refused(client, gb):
    rival = UserFactory(username="rivalorg")
    LeagueFactory(name="Rival League", organisers=[rival])
    logged_in(client, rival)
    assert client.get(url(gb)).status_code == 403
    assert post(client, gb, "add_organiser", who="rivalorg").status_code == 403
    assert not gb.organisers.filter(pk=rival.pk).exists()


def test_the_page_shows_the_leagues_values_and_is_linked_from_the_dashboard(client, gb, founder):
    logged_in(client, founder)
    page = client.get(url(gb)).content.decode()
    assert 'value="Harbour League"' in page
    assert "Thursdays." in page
    assert "The game: Guild Ball: The Big League" in page
    assert '<option value="12" selected>' in page
    assert "founder (you)" in page
    dashboard = client.get(reverse("league:organiser_dashboard", args=[gb.slug])).content.decode()
    assert dashboard.count(f'href="{url(gb)}"') == 2  # the tabs and the season checklist
    assert "/admin/" not in page


# Name and description -----------------------------------------------------------------


def test_the_organiser_renames_the_league_and_the_address_stays(client, gb, founder):
    logged_in(client, founder)
    response = post(client, gb, "league", name="  Harbour Big League ", description="Thursdays at the Anchor.")
    assert response.status_code == 302
    assert response["Location"] == url(gb) + "#league"
    gb.refresh_from_db()
    assert (gb.name, gb.description, gb.slug) == ("Harbour Big League", "Thursdays at the Anchor.", "harbour")
    page = client.get(response["Location"]).content.decode()
    assert "The league&#x27;s name and description are saved." in page
    assert client.get(gb.get_absolute_url()).content.decode().count("Harbour Big League") >= 1


def test_a_second_league_of_the_same_organiser_cannot_share_its_name(client, gb, founder):
    LeagueFactory(name="Docks League", slug="docks", organisers=[founder])
    logged_in(client, founder)
    response = post(client, gb, "league", name="docks league", description="")
    assert response.status_code == 400
    assert "You already organise a league called docks league" in response.content.decode()
    gb.refresh_from_db()
    assert (gb.name, gb.description) == ("Harbour League", "Thursdays.")


def test_another_organisers_league_may_share_the_name(client, gb, founder):
    LeagueFactory(name="Docks League", slug="docks", organisers=[UserFactory(username="elsewhere")])
    logged_in(client, founder)
    assert post(client, gb, "league", name="Docks League", description="").status_code == 302
    gb.refresh_from_db()
    assert gb.name == "Docks League"


def test_an_empty_or_too_long_name_is_refused(client, gb, founder):
    logged_in(client, founder)
    assert post(client, gb, "league", name="", description="x").status_code == 400
    response = post(client, gb, "league", name="x" * 121, description="x")
    assert response.status_code == 400
    assert "Ensure this value has at most 120 characters" in response.content.decode()
    gb.refresh_from_db()
    assert (gb.name, gb.description) == ("Harbour League", "Thursdays.")


def test_a_post_naming_no_section_is_refused(client, gb, founder):
    logged_in(client, founder)
    response = client.post(url(gb), {"name": "Nothing"})
    assert response.status_code == 400
    assert "Choose what to change with one of the page" in response.content.decode()


# The game's settings ------------------------------------------------------------------


def test_every_game_setting_changes_while_no_result_is_recorded(client, gb, founder):
    logged_in(client, founder)
    response = post(client, gb, "game", **{"game-vp_target": "8"})
    assert response.status_code == 302
    assert GuildBallSettings.objects.get(league=gb).vp_target == 8
    assert '<option value="8" selected>' in client.get(url(gb)).content.decode()


def test_a_league_without_a_settings_row_gets_one(client, founder):
    league = LeagueFactory(name="Nine Moons", slug="nine-moons", game_system="dreadball", organisers=[founder])
    logged_in(client, founder)
    values = {"game-landslide_win": "4", "game-win": "3", "game-draw": "1", "game-loss": "1"}
    assert post(client, league, "game", **values).status_code == 302
    row = DreadBallSettings.objects.get(league=league)
    assert (row.landslide_win, row.win, row.draw, row.loss) == (4, 3, 1, 1)


def test_points_are_locked_once_a_result_is_recorded(client, founder):
    """DR-4: League Points stay the same for every match of a season."""
    league = LeagueFactory(name="Nine Moons", slug="nine-moons", game_system="dreadball", organisers=[founder])
    DreadBallSettings.objects.create(league=league)
    season_with_results(coaches=4, played_rounds=1, season=SeasonFactory(league=league))
    logged_in(client, founder)
    page = client.get(url(league)).content.decode()
    assert "Fixed while this season has results" in page
    assert 'href="/rules/#DR-4"' in page
    assert page.count("disabled") >= 4
    values = {"game-landslide_win": "9", "game-win": "9", "game-draw": "9", "game-loss": "9"}
    assert post(client, league, "game", **values).status_code == 302
    row = DreadBallSettings.objects.get(league=league)
    assert (row.landslide_win, row.win, row.draw, row.loss) == (3, 2, 1, 0)


def test_dungeon_bowl_keeps_its_open_settings_open_once_games_are_recorded(client, founder):
    """DB-5b's play-off format and DB-15's cap stay open; DB-4's bonus and DB-11's
    SPP are fixed once a game is recorded."""
    league = LeagueFactory(name="Altdorf", slug="altdorf", game_system="dungeonbowl", organisers=[founder])
    DungeonBowlSettings.objects.create(league=league)
    season_with_results(coaches=4, played_rounds=1, season=SeasonFactory(league=league))
    logged_in(client, founder)
    values = {"game-draft_budget": "1000000", "game-casualty_bonus": "on", "game-playoffs": "1",
              "game-redraft_cap": "on", "game-spp_touchdown": "9"}
    for name in ("completion", "deflection", "interception", "casualty", "mvp"):
        values[f"game-spp_{name}"] = "1"
    assert post(client, league, "game", **values).status_code == 302
    row = DungeonBowlSettings.objects.get(league=league)
    assert (row.playoffs, row.redraft_cap) == (1, True)
    assert (row.casualty_bonus, row.spp_touchdown, row.spp_mvp) == (False, 3, 4)


def test_a_setting_out_of_bounds_is_refused_and_nothing_is_written(client, founder):
    league = LeagueFactory(name="Altdorf", slug="altdorf", game_system="dungeonbowl", organisers=[founder])
    DungeonBowlSettings.objects.create(league=league)
    logged_in(client, founder)
    values = {"game-draft_budget": "5", "game-playoffs": "1", "game-redraft_cap": "on"}
    for name in ("completion", "deflection", "interception", "casualty", "touchdown", "mvp"):
        values[f"game-spp_{name}"] = "1"
    response = post(client, league, "game", **values)
    assert response.status_code == 400
    assert "errorlist" in response.content.decode()
    row = DungeonBowlSettings.objects.get(league=league)
    assert (row.draft_budget, row.playoffs, row.redraft_cap, row.spp_touchdown) == (1_000_000, 0, False, 3)


# Webhooks -------------------------------------------------------------------------------


def test_the_organiser_sets_the_webhooks_and_a_new_secret(client, gb, founder):
    secret = gb.webhook_secret
    logged_in(client, founder)
    response = post(client, gb, "webhooks", discord_webhook=DISCORD, webhook_url="https://hooks.example.org/league",
                    new_secret="on")
    assert response.status_code == 302
    gb.refresh_from_db()
    assert (gb.discord_webhook, gb.webhook_url) == (DISCORD, "https://hooks.example.org/league")
    assert gb.webhook_secret != secret and len(gb.webhook_secret) == 64
    page = client.get(url(gb)).content.decode()
    assert gb.webhook_secret in page and "Send a test message" in page


@pytest.mark.parametrize("discord, signed, message", [
    ("https://example.org/api/webhooks/1/x", "", "Paste the webhook address Discord gives you"),
    ("", "https://10.0.0.1/hook", "by its name (not an IP address)"),
    ("not an address", "", "Enter a valid URL."),
    # The check every webhook's post goes through (league/outbox/addresses.py), as
    # on the events page: what the model's validators let through.
    ("", "https://someone:secret@hooks.example.org/league", "Leave the user name and password out"),
    ("https://someone:secret@discord.com/api/webhooks/1/x", "", "Leave the user name and password out"),
])
def test_a_webhook_address_the_validators_refuse_writes_nothing(client, gb, founder, discord, signed, message):
    logged_in(client, founder)
    response = post(client, gb, "webhooks", discord_webhook=discord, webhook_url=signed)
    assert response.status_code == 400
    assert message in response.content.decode()
    gb.refresh_from_db()
    assert (gb.discord_webhook, gb.webhook_url) == ("", "")


def test_a_test_message_is_queued_for_each_webhook(client, gb, founder, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    League.objects.filter(pk=gb.pk).update(discord_webhook=DISCORD, webhook_url="https://hooks.example.org/league")
    logged_in(client, founder)
    response = post(client, gb, "test_webhooks")
    assert response.status_code == 302
    assert response["Location"] == url(gb) + "#webhooks"
    assert "A test message is on its way to Discord and the signed webhook" in client.get(url(gb)).content.decode()
    # Each post is a delivery of the league's events, to its webhook's subscription, with its task.
    posts = DBTaskResult.objects.filter(task_path="league.events.delivery.deliver")
    deliveries = Delivery.objects.filter(pk__in=[row.args_kwargs["kwargs"]["delivery_id"] for row in posts])
    assert sorted(d.subscription.url for d in deliveries) == [DISCORD, "https://hooks.example.org/league"]
    assert {d.event_type for d in deliveries} == {"test"}


def test_the_test_message_reaches_the_receiver_signed(client, gb, founder, django_capture_on_commit_callbacks,
                                                     settings):
    settings.WEBHOOKS_ALLOW_LOOPBACK = True  # the local receiver
    with Receiver() as receiver:
        League.objects.filter(pk=gb.pk).update(webhook_url=receiver.url)
        gb.refresh_from_db()
        logged_in(client, founder)
        with django_capture_on_commit_callbacks(execute=True):
            assert post(client, gb, "test_webhooks").status_code == 302
    (headers, raw), = receiver.posts
    assert json.loads(raw)["event"] == "test" and "Harbour League" in json.loads(raw)["text"]
    assert headers[LEAGUE_SIGNATURE_HEADER] == league_signature(gb.webhook_secret, raw)


def test_no_test_message_without_a_webhook(client, gb, founder, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    logged_in(client, founder)
    response = post(client, gb, "test_webhooks")
    assert response.status_code == 400
    assert "This league has no webhook address yet" in response.content.decode()
    assert not DBTaskResult.objects.exists()


# Organisers -----------------------------------------------------------------------------


def test_an_organiser_is_added_by_email_and_removed(client, gb, founder):
    partner = UserFactory(username="partner", email="Partner@Example.com")
    logged_in(client, founder)
    assert post(client, gb, "add_organiser", who="partner@example.com").status_code == 302
    assert set(gb.organisers.values_list("username", flat=True)) == {"founder", "partner"}
    assert "partner organises Harbour League with you now." in client.get(url(gb)).content.decode()
    client.force_login(partner)
    assert client.get(url(gb)).status_code == 200
    assert post(client, gb, "remove_organiser", user=str(founder.pk)).status_code == 302
    assert list(gb.organisers.values_list("username", flat=True)) == ["partner"]


def test_an_unknown_or_inactive_account_is_not_added(client, gb, founder):
    UserFactory(username="gone", is_active=False)
    logged_in(client, founder)
    for who in ("nobody-here", "gone", ""):
        response = post(client, gb, "add_organiser", who=who)
        assert response.status_code == 400
    assert "they sign up first" in response.content.decode() or "This field is required" in response.content.decode()
    assert list(gb.organisers.all()) == [founder]


def test_the_last_organiser_cannot_leave(client, gb, founder):
    logged_in(client, founder)
    response = post(client, gb, "remove_organiser", user=str(founder.pk))
    assert response.status_code == 400
    assert "the league&#x27;s only organiser" in response.content.decode()
    assert list(gb.organisers.all()) == [founder]


def test_an_organiser_leaving_goes_to_the_league_page(client, gb, founder):
    gb.organisers.add(UserFactory(username="partner"))
    logged_in(client, founder)
    response = post(client, gb, "remove_organiser", user=str(founder.pk))
    assert response["Location"] == gb.get_absolute_url()
    assert client.get(url(gb)).status_code == 403


# Cost -----------------------------------------------------------------------------------


def settings_page_queries(client, founder, coaches: int) -> int:
    """The queries of the settings page of a DreadBall league of ``coaches`` coaches
    with a played round (its points locked) and four organisers."""
    league = LeagueFactory(name=f"Big {coaches}", slug=f"big-{coaches}", game_system="dreadball",
                           organisers=[founder])
    DreadBallSettings.objects.create(league=league)
    season_with_results(coaches=coaches, played_rounds=1, season=SeasonFactory(league=league))
    league.organisers.add(*(UserFactory(username=f"co{coaches}-{n}") for n in range(3)))
    client.get(url(league))
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url(league)).content.decode()
    assert page.count("Remove co") == 3 and "Fixed while this season has results" in page
    return len(queries)


def test_the_page_costs_the_same_at_4_and_40_coaches(client, founder, django_assert_max_num_queries):
    logged_in(client, founder)
    small = settings_page_queries(client, founder, 4)
    assert settings_page_queries(client, founder, 40) == small
    league = League.objects.get(slug="big-40")
    with django_assert_max_num_queries(small):
        client.get(url(league))


def test_help_texts_say_the_rule_in_words_with_a_small_link(client, founder):
    league = LeagueFactory(name="Nine Moons", slug="nine-moons", game_system="dreadball", organisers=[founder])
    logged_in(client, founder)
    page = client.get(url(league)).content.decode()
    assert "DR-4: a win by 7." not in page
    assert 'a win by 7. <a class="rule" href="/rules/#DR-4">DR-4</a>' in page


def test_head_to_head_first_is_the_organisers_until_a_result_is_recorded(client, founder):
    """DR-4 (a house rule): head-to-head first is offered on the settings page,
    saved before any result and fixed, like the points, once one is recorded."""
    league = LeagueFactory(name="Nine Moons", slug="nine-moons", game_system="dreadball", organisers=[founder])
    logged_in(client, founder)
    assert "Head-to-head first" in client.get(url(league)).content.decode()
    values = {"game-landslide_win": "3", "game-win": "2", "game-draw": "1", "game-loss": "0"}
    assert post(client, league, "game", **values, **{"game-head_to_head_first": "on"}).status_code == 302
    assert DreadBallSettings.objects.get(league=league).head_to_head_first is True
    season_with_results(coaches=4, played_rounds=1, season=SeasonFactory(league=league))
    assert post(client, league, "game", **values).status_code == 302  # the box left unticked
    assert DreadBallSettings.objects.get(league=league).head_to_head_first is True
def test_the_settings_page_offers_the_league_whole_as_a_download(client, gb, founder):
    page = logged_in(client, founder).get(url(gb)).content.decode()
    export = reverse("league:organiser_export", args=[gb.slug])
    assert f'href="{export}" download' in page and "Take the league away" in page
    response = client.get(export)
    assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
    assert json.loads(b"".join(response.streaming_content))["league"]["slug"] == "harbour"
