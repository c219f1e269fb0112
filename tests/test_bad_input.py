"""No URL answers bad input with a server error: every route of the site, as every
role, with no data, with garbage, with ids that do not exist, on the demo league."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from campaigns.models import CardOffer, Loan, MomentUnlock
from campaigns.demo import load_demo
from league.models import Coach, Fixture

pytestmark = pytest.mark.django_db

GARBAGE = {
    "home_score": "-1e9",
    "away_score": "x",
    "reason": "x" * 5000,
    "date": "31/02/2026",
    "card": "999999",
    "cards": ["abc", "999999"],
    "sponsorship": "🙂",
    "amount": "NaN",
    "favours": "6",
    "action": "explode",
    "lender": "0",
    "model_type": "captain",
    "wanted": "-3",
    "offered": "",
    "ledger": "gold",
}


def _site_routes(resolver=None, prefix=""):
    """(name, kwarg names) of every named route outside the admin."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        if isinstance(entry, URLResolver):
            if entry.app_name == "admin":
                continue
            namespace = f"{entry.namespace}:" if entry.namespace else ""
            yield from _site_routes(entry, prefix + namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            yield prefix + entry.name, list(entry.pattern.regex.groupindex)


@pytest.fixture
def demo(db):
    league = load_demo()
    fixture = Fixture.objects.filter(round__season__league=league, away__isnull=False).first()
    return {
        "slug": league.slug,
        "pk": fixture.pk,
        "fixture_id": fixture.pk,
        "coach_id": Coach.objects.get(name="Ada Blackwater").pk,
        "entry_id": fixture.home_id,  # withdrawing an entrant
        "unlock_id": MomentUnlock.objects.first().pk,
        "loan_id": Loan.objects.first().pk,
        "offer_id": CardOffer.objects.first().pk,
        "merge_id": 987654,  # a merge request waiting on someone: none in the demo
        "game": "guildball",  # the ratings, leaderboards and records of one game
        "request_id": 987654,  # a join request: none waits in the demo
        "other_id": Coach.objects.exclude(name="Ada Blackwater").order_by("pk").first().pk,  # head-to-head
        # Accounts: an invitation token and a password-reset link that are not real.
        "token": "not-a-token",
        "uidb64": "MQ",
        "team_slug": "no-such-team",  # Dungeon Bowl team pages (404 on a Guild Ball league)
    }


def _urls(values):
    for name, kwargs in _site_routes():
        yield name, reverse(name, kwargs={k: values[k] for k in kwargs})
        missing = {k: (values[k] if k == "slug" else 987654) for k in kwargs}
        if kwargs != ["slug"] and kwargs:
            yield name + " (missing ids)", reverse(name, kwargs=missing)
        if "slug" in kwargs:
            yield name + " (unknown league)", reverse(name, kwargs={**{k: values[k] for k in kwargs}, "slug": "nope"})


@pytest.mark.parametrize("who", ["anonymous", "ada", "greta", "longshanks"])
def test_no_route_gives_a_server_error(client, demo, who):
    from django.contrib.auth import get_user_model

    if who != "anonymous":
        client.force_login(get_user_model().objects.get(username=who))
    checked = 0
    for name, url in _urls(demo):
        for method, data in (("get", None), ("post", {}), ("post", GARBAGE)):
            response = getattr(client, method)(url, data) if data is not None else client.get(url)
            assert response.status_code < 500, f"{method.upper()} {url} ({name}) as {who}: {response.status_code}"
            checked += 1
    assert checked > 100
