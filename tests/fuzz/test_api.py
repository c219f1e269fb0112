"""The read API fuzzed from its own schema (schemathesis): every operation, its
path and query parameters generated from the OpenAPI schema, the league half the
time one of the world's (so the answers go past the 404), for every game. Never a
5xx, a GET writes nothing, and every answer is JSON."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import given, note, settings
from hypothesis import strategies as st

from league.dungeonbowl.models import Team
from tests.fuzz.conftest import Attempt
from tests.support.world import GAMES


@pytest.fixture
def keep_the_test_connection():
    """schemathesis calls the WSGI application itself, not through Django's test
    client, so nothing stops each request's end from closing the test's database
    connection (on PostgreSQL the rest of the run would find it closed): the
    test client's own precaution, here."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
def test_the_api_answers_no_5xx_to_its_own_schema(world, keep_the_test_connection):
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", get_wsgi_application())
    operations = [found.ok() for found in schema.get_all_operations()]
    assert len(operations) >= 17
    slugs = [world.games[game].league.slug for game in GAMES]
    coaches = [world.games[game].right.pk for game in GAMES]
    teams = list(Team.objects.values_list("slug", flat=True)[:3])
    fixtures = [world.games[game].fixture.pk for game in GAMES]  # the result writes (POST, a token needed)
    profile = settings()

    for operation in operations:
        @settings(profile, max_examples=max(profile.max_examples, 6))
        @given(case=operation.as_strategy(), known=st.booleans(), data=st.data())
        def check(case, known, data):
            if known:
                chosen = {"slug": data.draw(st.sampled_from(slugs)), "coach_id": data.draw(st.sampled_from(coaches)),
                          "team_slug": data.draw(st.sampled_from(teams)), "game": data.draw(st.sampled_from(GAMES)),
                          "fixture_id": data.draw(st.sampled_from(fixtures))}
                case.path_parameters = {name: chosen[name] for name in (case.path_parameters or {})}
            note(f"{case.method} {case.formatted_path} {case.query}")
            with Attempt() as attempt:
                response = case.call()
            assert response.status_code < 500, (case.formatted_path, case.query, response.text[:500])
            assert not attempt.wrote, attempt.writes
            assert response.headers.get("content-type", [""])[0].startswith("application/json")

        check()
