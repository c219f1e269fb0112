"""The organiser's settings page in a real Chromium at 390 px: every section fits
without sideways scroll at 360 px, every control is a thumb's target (44 px), and
a change saved from the phone is in the database. The screenshot goes to
artifacts/screenshots/settings-phone.png."""

import pytest
from django.urls import reverse

from league.dungeonbowl.models import DungeonBowlSettings
from league.models import League
from tests.browser.chromium import CHROMIUM_ONLY, log_in, shot
from tests.browser.test_thumbs_forms import fits_and_taps
from tests.support.factories import LeagueFactory, SeasonFactory, UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_settings_on_a_phone(live_server, phone, password):
    founder = UserFactory(username="founder")
    league = LeagueFactory(name="Altdorf Colleges", slug="altdorf", game_system="dungeonbowl", organisers=[founder])
    league.organisers.add(UserFactory(username="partner"))
    DungeonBowlSettings.objects.create(league=league)
    SeasonFactory(league=league, name="Season 1")
    League.objects.filter(pk=league.pk).update(
        discord_webhook="https://discord.com/api/webhooks/1/abc", webhook_url="https://hooks.example.org/league"
    )
    log_in(phone, live_server, "founder", password)
    phone.goto(live_server.url + reverse("league:organiser_settings", args=[league.slug]))
    forms = len(phone.query_selector_all("main form"))
    assert forms == 7  # name, game, webhooks, test message, two organisers' buttons, add one
    for number in range(forms):
        fits_and_taps(phone, f"main form >> nth={number}")
    phone.click("#webhooks summary")  # the signing secret, 64 characters, wraps
    fits_and_taps(phone, "#webhooks form >> nth=0")
    phone.evaluate("window.scrollTo(0, 0)")
    shot(phone, "settings-phone.png")
    phone.fill("#id_game-draft_budget", "1100000")
    phone.locator("#game button[type=submit]").click()
    phone.wait_for_url("**#game")
    assert DungeonBowlSettings.objects.get(league=league).draft_budget == 1_100_000
    assert "The game's settings are saved." in phone.content()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_the_games_data_pages_on_a_phone(live_server, phone, password):
    """DreadBall's published teams and Dungeon Bowl's skills, with a league's own
    beside every league's: no sideways scroll, 44 px targets in every form."""
    from league.dreadball.models import PublishedPlayer, TeamType
    from league.dungeonbowl.models import College, PositionGroup, Skill

    founder = UserFactory(username="founder")
    dread = LeagueFactory(name="Nine Moons", slug="nine-moons", game_system="dreadball", organisers=[founder])
    sirens = TeamType.objects.create(name="Void Sirens", race="Sirens", league=dread)
    PublishedPlayer.objects.create(team_type=sirens, name="Striker", role="striker", move=6, strength=5, agility=3,
                                   speed=3, skill=4, armour=5, cost=12, starting=2, maximum=4)
    dungeon = LeagueFactory(name="Altdorf Colleges", slug="altdorf", game_system="dungeonbowl", organisers=[founder])
    Skill.objects.create(name="Glowing Runes", category="M", league=dungeon)
    embers = College.objects.create(name="College of Embers", slug="college-of-embers", wizard="W", league=dungeon)
    PositionGroup.objects.create(college=embers, name="Runners", max_count=16)
    log_in(phone, live_server, "founder", password)
    for name, league, shot_name in (("dreadball:published_teams", dread, "published-teams-phone.png"),
                                    ("dungeonbowl:league_skills", dungeon, "league-skills-phone.png"),
                                    ("dungeonbowl:league_colleges", dungeon, "league-colleges-phone.png")):
        phone.goto(live_server.url + reverse(name, args=[league.slug]))
        for summary in phone.query_selector_all("main summary"):
            summary.click()
        for number in range(len(phone.query_selector_all("main form"))):
            fits_and_taps(phone, f"main form >> nth={number}")
        phone.evaluate("window.scrollTo(0, 0)")
        shot(phone, shot_name)
