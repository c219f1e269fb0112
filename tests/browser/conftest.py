"""The browser tests' fixtures: Chromium driven by Playwright, and a page at a
phone's size. Their helpers are in tests/browser/chromium.py."""

from __future__ import annotations

import os

import pytest
from django.db import connections

from tests.browser.chromium import CHROMIUM, new_page


@pytest.fixture
def browser():
    # Playwright's sync API runs an event loop in this thread; the ORM calls the
    # test makes between browser steps are synchronous and safe here.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()
        # The test's ORM calls ran while Playwright's event loop ran in this thread,
        # so Django kept their connection in a context of its own: close it while
        # that context lasts, so the test database can be dropped.
        connections.close_all()


@pytest.fixture
def phone(browser):
    page = new_page(browser, "phone")
    yield page
    page.context.close()
