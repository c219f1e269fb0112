"""A coach drafts a Dungeon Bowl team on a phone-sized screen (390 px wide) in a
real Chromium, and sees the running cost and the budget left before submitting."""

import pytest
from django.urls import reverse

from league.dungeonbowl.models import DungeonBowlSettings, Position, Team
from tests.browser.chromium import CHROMIUM_ONLY, log_in, no_sideways_scroll, shot
from tests.support.factories import CoachFactory, LeagueFactory, UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_coach_drafts_on_a_phone_and_sees_the_budget(live_server, phone, password):
    league = LeagueFactory(name="Altdorf Colleges", slug="altdorf", game_system="dungeonbowl",
                           organisers=[UserFactory(username="boss")])
    DungeonBowlSettings.objects.create(league=league)
    coach = CoachFactory(name="Ulrika")
    blitzer = Position.objects.get(name="Dark Elf Blitzer").pk
    lineman = Position.objects.get(name="Dark Elf Lineman").pk

    log_in(phone, live_server, coach.user.username, password)
    phone.goto(live_server.url + reverse("dungeonbowl:draft", args=[league.slug]))
    phone.select_option("select#college", "college-of-shadows")
    phone.click("text=Choose")
    phone.wait_for_selector(f"input[name=pos_{blitzer}]")
    assert "1,000,000 gp left" in phone.content()
    phone.fill("input[name=name]", "Night Cats")
    phone.fill("input[name=rerolls]", "2")
    phone.fill(f"input[name=pos_{blitzer}]", "3")
    phone.fill(f"input[name=pos_{lineman}]", "6")
    phone.click("text=Check the cost and limits")
    phone.wait_for_selector("text=1 too many")
    content = phone.content()
    # 3 x 100,000 + 6 x 70,000 + 2 x 50,000 = 820,000: the running cost and what is left.
    assert "Cost 820,000 gp" in content and "180,000 gp left" in content
    assert not Team.objects.exists()
    no_sideways_scroll(phone)

    phone.fill(f"input[name=pos_{blitzer}]", "2")
    phone.click("text=Check the cost and limits")
    phone.wait_for_selector("text=280,000 gp left")
    shot(phone, "phone-draft.png")
    phone.click("text=Submit the draft")
    phone.wait_for_selector("text=Draft submitted: Night Cats")
    no_sideways_scroll(phone)
    team = Team.objects.get(name="Night Cats")
    assert team.players.count() == 8 and team.treasury() == 280_000
