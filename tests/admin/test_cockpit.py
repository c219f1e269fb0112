"""The admin index as the superuser's cockpit (league/admin_site.py):
the organiser's everyday models first, each app's catalogues, then the ledgers and
logs under their own heading, then the accounts."""

import re

import pytest
from django.contrib import admin
from django.urls import reverse

from league.admin_site import CockpitSite

pytestmark = pytest.mark.django_db


def groups(page: str) -> list[tuple[str, list[str]]]:
    """The index's groups in order: (heading, [model names]) as the page shows them."""
    out = []
    for caption, body in re.findall(r"<caption>(.*?)</caption>(.*?)</table>", page, re.S):
        heading = re.sub(r"<[^>]+>", "", caption).strip()
        names = [re.sub(r"<[^>]+>", "", name).strip() for name in re.findall(r'<th scope="row"[^>]*>(.*?)</th>', body, re.S)]
        out.append((heading, names))
    return out


def test_the_default_site_is_the_cockpit():
    assert isinstance(admin.site._wrapped if hasattr(admin.site, "_wrapped") else admin.site, CockpitSite)


def test_superuser_index_shows_the_groups_in_order(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    shown = groups(page)
    headings = [heading for heading, _ in shown]
    assert headings[0] == "Running the leagues"
    assert headings[-2:] == ["Ledgers and logs", "Accounts and permissions"]
    everyday = dict(shown)["Running the leagues"]
    assert everyday[:5] == ["Leagues", "Seasons", "Coaches", "Fixtures", "Results"]
    # The games' teams next, then entries and rounds.
    assert "Teams" in everyday[5:7], everyday
    ledgers = dict(shown)["Ledgers and logs"]
    for name in ("Campaign Point entries", "Favour entries", "Treasury lines", "Dice rolls", "Access attempts"):
        assert name in ledgers, ledgers
    assert "Task Results" in ledgers, ledgers  # the task queue's record
    assert dict(shown)["Accounts and permissions"] == ["Groups", "Users"]
    # Each app's own catalogues between them, and no model twice.
    middle = headings[1:-2]
    assert middle and all(name not in ledgers for heading in middle for name in dict(shown)[heading])
    listed = [(heading, name) for heading, names in shown for name in names]
    assert len(listed) == len(set(listed)), listed


def test_an_app_page_keeps_djangos_list(admin_client):
    page = admin_client.get(reverse("admin:app_list", args=["league"])).content.decode()
    assert [heading for heading, _ in groups(page)][0] == "Leagues"
