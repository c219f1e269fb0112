"""The server's side of the offline pages: the service worker at the
site's root, the web app manifest, the policy that allows them, the page's user
mark, and a log-out that tells the browser to drop what it kept."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.views.defaults import bad_request

from tests.support.factories import UserFactory

pytestmark = pytest.mark.django_db

MARK = re.compile(r'<meta name="league-user" content="([^"]*)">')


def test_service_worker_is_served_from_the_root_for_the_whole_site(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    script = response.content.decode()
    assert 'importScripts("/static/js/outbox.js")' in script and "__OUTBOX_SCRIPT__" not in script
    assert client.post("/sw.js").status_code == 405


def test_manifest_names_the_app_its_icons_and_start_page(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "League Manager"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == reverse("league:my_fixtures")
    assert manifest["theme_color"] == "#1d2330"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"any", "192x192", "512x512"}
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


def test_the_policy_allows_the_worker_and_the_manifest_from_the_site_only(client):
    policy = client.get(reverse("league:league_list"))["Content-Security-Policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_pages_link_the_manifest_and_the_scripts(client):
    page = client.get(reverse("league:league_list")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert 'src="/static/js/outbox.js" defer' in page
    assert 'src="/static/js/offline.js" defer data-worker="/sw.js"' in page


def test_the_user_mark_differs_per_user_and_is_empty_for_visitors(client):
    assert MARK.search(client.get(reverse("league:league_list")).content.decode()).group(1) == ""
    marks = []
    for user in (UserFactory(), UserFactory()):
        client.force_login(user)
        mark = MARK.search(client.get(reverse("league:league_list")).content.decode()).group(1)
        assert mark and str(user.pk) != mark
        marks.append(mark)
    assert marks[0] != marks[1]


def test_logging_out_tells_the_browser_to_drop_the_kept_pages_and_outbox(client):
    client.force_login(UserFactory())
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == '"cache", "storage"'
    assert "_auth_user_id" not in client.session


def test_an_error_page_rendered_without_a_request_has_an_empty_user_mark(rf):
    """Django's bad_request handler renders 400.html with no request context."""
    response = bad_request(rf.get("/"), Exception("bad"))
    assert response.status_code == 400
    assert MARK.search(response.content.decode()).group(1) == ""
