"""Signing up with Discord in a real Chromium at 390 px, against the stand-in of
Discord's OAuth2 server (tests/support/discord_standin.py): the log-in page's "Log in with
Discord", "Authorize" on Discord's page, and the person is back on the site with an
account, logged in, in two clicks. The page's Content-Security-Policy lets its form
go on to Discord (no violation); then the profile shows the link."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from social_django.models import UserSocialAuth

from tests.browser.chromium import CHROMIUM_ONLY, new_page, no_sideways_scroll, shot
from tests.support.discord_standin import CLIENT_ID, CLIENT_SECRET, StandIn

pytestmark = CHROMIUM_ONLY


@pytest.fixture
def discord(settings):
    standin = StandIn().start()
    settings.DISCORD_CLIENT_ID = CLIENT_ID
    settings.DISCORD_CLIENT_SECRET = CLIENT_SECRET
    settings.DISCORD_API_URL = standin.api_url
    yield standin
    standin.stop()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_new_person_signs_up_with_discord_in_two_clicks(live_server, browser, discord, size):
    page = new_page(browser, size)
    page.goto(live_server.url + reverse("login"))
    no_sideways_scroll(page)
    shot(page, f"discord-login-{size}.png")

    page.get_by_role("button", name="Log in with Discord").click()  # one
    page.wait_for_selector("text=Authorize the league site?")
    page.get_by_role("button", name="Authorize", exact=True).click()  # two
    page.wait_for_url(f"**{reverse('league:my_fixtures')}")
    assert "Welcome, nelly: your account is made." in page.inner_text("body")
    no_sideways_scroll(page)
    shot(page, f"discord-welcome-{size}.png")

    user = get_user_model().objects.get(username="nelly")
    assert UserSocialAuth.objects.get().user == user and user.is_active

    page.goto(live_server.url + reverse("profile"))
    assert "Linked to the Discord account nelly" in page.inner_text("#discord ~ form, form[aria-labelledby=discord]")
    no_sideways_scroll(page)
    shot(page, f"discord-profile-{size}.png")
    assert page.violations == []
    page.context.close()
