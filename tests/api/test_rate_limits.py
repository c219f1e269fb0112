"""The API's rate limits: per token, and per address without one, counted in the
database (every process sees the same count): 429 with Retry-After."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from league.models import Throttle
from tests.api.conftest import bearer


@pytest.mark.django_db
def test_a_token_over_its_limit_gets_429_with_retry_after(client, settings, gb_fixture):
    settings.API_TOKEN_RATE = 3
    headers = bearer(gb_fixture.home.coach.user, "read", "report")
    for _ in range(3):
        assert client.get("/api/v1/leagues/", headers=headers).status_code == 200
    refused = client.post(f"/api/v1/fixtures/{gb_fixture.pk}/report/", {"facts": {"home_score": 12, "away_score": 8}},
                          content_type="application/json", headers=headers)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert not hasattr(gb_fixture, "result") or gb_fixture.result_or_none is None
    # Another token of the same user, and anonymous use, count apart.
    assert client.get("/api/v1/leagues/", headers=bearer(gb_fixture.home.coach.user, "read")).status_code == 200
    assert client.get("/api/v1/leagues/").status_code == 200
    # The window over, the token is served again.
    Throttle.objects.update(started=timezone.now() - datetime.timedelta(minutes=2))
    assert client.get("/api/v1/leagues/", headers=headers).status_code == 200


@pytest.mark.django_db
def test_anonymous_use_is_counted_per_address(client, settings):
    settings.API_ANONYMOUS_RATE = 2
    for _ in range(2):
        assert client.get("/api/v1/leagues/", REMOTE_ADDR="203.0.113.5").status_code == 200
    refused = client.get("/api/v1/leagues/", REMOTE_ADDR="203.0.113.5")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert client.get("/api/v1/leagues/", REMOTE_ADDR="203.0.113.6").status_code == 200
    # The count is a row of the database, keyed by a digest, never the address itself.
    assert Throttle.objects.filter(kind="api-address").count() == 2
    assert not Throttle.objects.filter(key__contains="203.0.113").exists()


@pytest.mark.django_db
def test_a_wrong_token_on_a_read_is_a_401_not_anonymous(client):
    assert client.get("/api/v1/leagues/", headers={"Authorization": "Bearer lgt_000000000000_x"}).status_code == 401


@pytest.mark.django_db
def test_processes_take_the_count_in_blocks_and_never_pass_the_limit(django_assert_max_num_queries):
    """Each process writes the shared count once a block (a twentieth of the
    limit), and serves the block without another write; two processes together
    serve the limit exactly, never more."""
    from league.api.access import Leases

    one, two = Leases(), Leases()
    with django_assert_max_num_queries(14):  # 70 requests in blocks of 5
        assert all(one.take("api-address", "203.0.113.9", 100) for _ in range(70))
    served = sum(two.take("api-address", "203.0.113.9", 100) for _ in range(70))
    assert served == 30
    assert not one.take("api-address", "203.0.113.9", 100)
    assert Throttle.objects.get(kind="api-address").count >= 100
    # Another key, another limit: a block of its own.
    assert one.take("api-address", "203.0.113.10", 100)
    # The window over, a block is taken again.
    Throttle.objects.update(started=timezone.now() - datetime.timedelta(minutes=2))
    two.forget()
    assert two.take("api-address", "203.0.113.9", 100)
