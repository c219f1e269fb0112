"""What the browser tests share besides their fixtures (tests/browser/conftest.py):
the marks that skip them where Chromium is missing, a page at a phone's or a
laptop's size that collects Content-Security-Policy violations, logging in
through the login form, and the checks and screenshots every page gets."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from django.urls import reverse

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"))
WIDTHS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 900}}

CHROMIUM_ONLY = [
    pytest.mark.browser,
    pytest.mark.skipif(
        shutil.which(CHROMIUM) is None and not os.environ.get("CI"),
        reason="Chromium is not installed (apt-get install -y chromium); .ci/run installs it",
    ),
]


def new_page(browser, size: str):
    """A page in a context of its own at ``size`` (a key of WIDTHS); what the console
    says about the Content-Security-Policy collects in ``page.violations``."""
    phone = size == "phone"
    context = browser.new_context(viewport=WIDTHS[size], is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.violations = []
    page.on(
        "console",
        lambda msg: page.violations.append(f"{page.url}: {msg.text}") if "Content Security Policy" in msg.text else None,
    )
    return page


def log_in(page, live_server, username: str, password: str) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{reverse('league:my_fixtures')}")


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.url


def screenshot_path(name: str) -> str:
    """Where a screenshot called ``name`` goes (docs/testing.md: artifacts/screenshots/, or
    SCREENSHOT_DIR)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return str(SCREENSHOTS / name)


def shot(page, name: str) -> None:
    page.screenshot(path=screenshot_path(name), full_page=True)
