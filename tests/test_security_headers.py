"""The Content-Security-Policy: every page sends it, and no template needs what it
forbids (an inline script, a <style> element, a style= attribute, an inline event
handler), so the pages satisfy it. The browser test in tests/browser/test_csp.py
checks the same in Chromium, the admin included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = [ROOT / "templates", ROOT / "league" / "templates", ROOT / "campaigns" / "templates"]

INLINE = {
    # A JSON data block (type="application/json") is never run, so the policy lets it be.
    "a <script> without src": re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.IGNORECASE),
    "a <style> element": re.compile(r"<style\b", re.IGNORECASE),
    "a style= attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "an inline event handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "a javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


def templates() -> list[Path]:
    """Every page template. Mail bodies (templates/emails/) are left out: a mail
    client shows them, never under the site's Content-Security-Policy, and mail
    clients honour inline styles only."""
    return sorted(
        p for d in TEMPLATE_DIRS if d.is_dir() for p in d.rglob("*.html") if "emails" not in p.relative_to(d).parts
    )


def test_there_are_templates_to_scan():
    assert len(templates()) >= 10


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_template_needs_nothing_the_policy_forbids(path):
    text = path.read_text()
    found = [what for what, pattern in INLINE.items() if pattern.search(text)]
    assert not found, f"{path.relative_to(ROOT)} has {', '.join(found)}; the Content-Security-Policy blocks it"


def test_policy_allows_no_inline_code_and_nothing_from_elsewhere():
    directives = settings.CONTENT_SECURITY_POLICY["DIRECTIVES"]
    for name in ("default-src", "script-src", "style-src"):
        assert directives[name] == ["'self'"], name
    assert directives["object-src"] == ["'none'"]
    assert directives["frame-ancestors"] == ["'none'"]


@pytest.mark.django_db
@pytest.mark.parametrize("url", [reverse("league:league_list"), reverse("login"), "/admin/login/"])
def test_pages_send_the_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert "frame-ancestors 'none'" in policy
