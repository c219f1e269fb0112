"""The campaign page in sections (overview, picks, decks, dealing, history): plain
anchor tabs, no script; the section holding a refused form opens first."""

import re

import pytest
from django.urls import reverse

from tests.campaigns.factories import make_campaign, user_of

pytestmark = pytest.mark.django_db


def current(page: str) -> list[str]:
    return re.findall(r'class="tab-panel current" id="tab-(\w+)"', page)


def test_the_page_opens_on_the_overview_with_every_section_present(client, season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    client.force_login(user_of(a))
    page = client.get(reverse("campaigns:coach_page", args=["midlands", a.entry.coach_id])).content.decode()
    for tab in ("overview", "picks", "decks", "dealing", "history"):
        assert f'href="#tab-{tab}"' in page and f'id="tab-{tab}"' in page
    assert current(page) == ["overview"]
    # Sections keep their own anchors, which open their tab (redirects use them).
    assert page.index('id="tab-dealing"') < page.index('id="loans"') < page.index('id="tab-history"')
    # Plain anchors: no script of their own (the site-wide static files only, never inline).
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)


def test_a_refused_form_opens_its_section(client, season, organiser):
    a, b = make_campaign(season, 2, organiser=organiser)
    client.force_login(user_of(a))
    response = client.post(
        reverse("campaigns:request_loan", args=["midlands"]), {"lender": b.pk, "model_name": "", "model_type": "squaddie"}
    )
    assert response.status_code == 400
    assert current(response.content.decode()) == ["dealing"]
    response = client.post(reverse("campaigns:start_pick", args=["midlands"]), {"card": 999999})
    assert response.status_code == 400 and current(response.content.decode()) == ["picks"]
