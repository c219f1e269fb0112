"""The API tokens page in a real Chromium, at a phone's width and a laptop's: a
token made on it is shown once, copied with its button, then listed by its
prefix only, and revoked. Screenshots: artifacts/screenshots/api-tokens-*.png."""

import re

import pytest
from django.urls import reverse

from league.api.models import ApiToken
from tests.browser.chromium import CHROMIUM_ONLY, log_in, new_page, no_sideways_scroll, shot
from tests.browser.test_thumbs_forms import fits_and_taps
from tests.support.factories import UserFactory

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_make_copy_and_revoke_a_token(live_server, browser, password, size):
    UserFactory(username="ada")
    page = new_page(browser, size)
    log_in(page, live_server, "ada", password)
    page.goto(live_server.url + reverse("api_tokens"))
    page.fill("#id_name", "results bot")
    page.check("input[name=scopes][value=report]")
    page.click("main form button[type=submit]")
    shown = page.input_value("#new-token-value")
    assert re.fullmatch(r"lgt_[0-9a-f]{12}_[\w-]{43}", shown)
    if size == "phone":
        fits_and_taps(page, "main form >> nth=0")
    no_sideways_scroll(page)
    shot(page, f"api-tokens-{size}.png")
    token = ApiToken.objects.get()
    assert token.scopes == ["read", "report"] and shown not in token.digest
    page.goto(live_server.url + reverse("api_tokens"))
    assert shown not in page.content() and f"lgt_{token.prefix}_" in page.content()
    page.click("text=Revoke “results bot”")
    page.wait_for_selector("text=it is refused from now on")
    token.refresh_from_db()
    assert not token.is_active
    assert page.violations == []
    page.context.close()
