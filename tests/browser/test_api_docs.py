"""The API's docs page (/api/docs/) in a real Chromium, at a phone's and a laptop's
width: Swagger UI, served from the site's own static files, renders every endpoint
under the site's Content-Security-Policy with no violation, and asks no other
origin for anything."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from tests.browser.chromium import CHROMIUM_ONLY, SCREENSHOTS, new_page

pytestmark = CHROMIUM_ONLY


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_docs_render_under_the_policy_from_the_site_alone(live_server, browser, size):
    page = new_page(browser, size)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    response = page.goto(f"{live_server.url}/api/docs/")
    assert response.status == 200 and response.headers.get("content-security-policy")
    page.wait_for_selector(".opblock-summary-path", timeout=20_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/leagues/{slug}/standings/" in path for path in paths), paths
    assert len(paths) >= 17
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"api-docs-{size}.png"))
    site = urlparse(live_server.url).netloc
    assert all(urlparse(url).netloc == site for url in asked if not url.startswith("data:")), asked
    assert not page.violations, page.violations
    page.context.close()
