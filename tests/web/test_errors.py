"""Outages and error pages: a database that stops answering gives a styled 503 with
Retry-After (not Django's bare 500), rendered without the database; /health/ tells
a load balancer; 403/404/500 are styled pages with a way home; .json URLs get a
JSON 404."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import PermissionDenied
from django.db import InterfaceError, OperationalError, connection
from django.test import RequestFactory
from django.urls import reverse

from league.web import errors
from tests.support.factories import LeagueFactory

pytestmark = pytest.mark.django_db

HOME = reverse("league:league_list")


@pytest.fixture
def database_down(monkeypatch):
    """Every query fails as when PostgreSQL is stopped; counts the attempts."""
    attempts = []

    def refuse(*args, **kwargs):
        attempts.append(1)
        raise OperationalError("connection to server at 127.0.0.1, port 5432 failed: Connection refused")

    monkeypatch.setattr(connection, "ensure_connection", refuse)
    return attempts


@pytest.mark.parametrize("url", [HOME, "/leagues/midlands/", "/fixtures/1/"])
def test_pages_answer_503_while_the_database_is_down(client, database_down, url):
    client.raise_request_exception = False
    response = client.get(url)
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    page = response.content.decode()
    assert "The site is briefly unavailable" in page and "try again in a minute" in page
    assert f'href="{HOME}"' in page
    assert 'href="/static/css/site.css"' in page  # styled, not the bare "Server Error (500)"


@pytest.mark.parametrize("url", ["/leagues/midlands/standings.json", "/leagues/midlands/campaign.json"])
def test_json_urls_answer_json_503_while_the_database_is_down(client, database_down, url):
    """A client parsing JSON gets JSON during an outage, as it does for a 404."""
    client.raise_request_exception = False
    response = client.get(url)
    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response["Retry-After"] == "60"
    assert json.loads(response.content) == {"error": "unavailable"}


def test_handler500_answers_json_for_a_json_url(database_down):
    request = RequestFactory().get("/leagues/midlands/standings.json")
    try:
        raise OperationalError("gone")
    except OperationalError:
        response = errors.server_error(request)
    assert response.status_code == 503 and json.loads(response.content) == {"error": "unavailable"}


def test_a_logged_in_page_answers_503_when_the_session_cannot_be_read(client, monkeypatch):
    from tests.support.factories import UserFactory

    client.force_login(UserFactory())
    monkeypatch.setattr(connection, "ensure_connection", lambda: (_ for _ in ()).throw(OperationalError("down")))
    client.raise_request_exception = False
    response = client.get("/me/")
    assert response.status_code == 503
    assert "briefly unavailable" in response.content.decode()


def test_the_503_page_renders_without_the_database(database_down):
    response = errors.unavailable_response()
    assert response.status_code == 503
    assert database_down == []


@pytest.mark.parametrize("exc", [OperationalError("gone"), InterfaceError("connection already closed")])
def test_handler500_turns_an_outage_outside_a_view_into_503(exc, database_down):
    request = RequestFactory().get("/")
    try:
        raise exc
    except Exception:
        response = errors.server_error(request)
    assert response.status_code == 503
    assert database_down == []


def test_handler500_for_other_errors_is_a_styled_500(database_down):
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("bug")
    except RuntimeError:
        response = errors.server_error(request)
    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and f'href="{HOME}"' in page
    assert database_down == []


def test_the_middleware_leaves_other_exceptions_to_the_500_handler():
    middleware = errors.DatabaseUnavailableMiddleware(lambda request: None)
    assert middleware.process_exception(RequestFactory().get("/"), RuntimeError("a bug, not an outage")) is None


def test_health_ok(client):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_health_unavailable(client, database_down):
    response = client.get("/health/")
    assert response.status_code == 503
    assert json.loads(response.content) == {"status": "unavailable"}


def test_health_refuses_post(client):
    assert client.post("/health/").status_code == 405


def test_styled_404_with_a_way_home(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "Page not found" in page and f'href="{HOME}"' in page
    assert 'href="/static/css/site.css"' in page


@pytest.mark.parametrize("url", ["/leagues/no-such-league/standings.json", "/leagues/no-such-league/campaign.json", "/nothing.json"])
def test_json_404_for_json_urls(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"error": "not found"}


def test_styled_403_with_a_way_home(client):
    from django.views.defaults import permission_denied

    request = RequestFactory().get("/somewhere/")
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    response = permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    page = response.content.decode()
    assert "Not allowed" in page and f'href="{HOME}"' in page and "log in" in page


def test_every_error_template_exists_and_extends_the_base():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    for name in ("403.html", "404.html", "500.html", "503.html"):
        assert (root / name).read_text().startswith('{% extends "base.html" %}'), name


RECONNECT = """
import json, psycopg
from wsgiref.util import setup_testing_defaults
from django.core.wsgi import get_wsgi_application
from django.db import connection

app = get_wsgi_application()  # as gunicorn serves it: request_started and _finished manage the connection


def get(path):
    environ = {"PATH_INFO": path, "HTTP_HOST": "testserver"}
    setup_testing_defaults(environ)
    status = []
    body = app(environ, lambda code, headers, exc_info=None: status.append(int(code.split()[0])))
    b"".join(body)
    body.close()
    return status[0]


before = get("/")
db = connection.settings_dict
with psycopg.connect(dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"] or 5432, autocommit=True) as other:
    other.execute("SELECT pg_terminate_backend(%s)", [connection.connection.info.backend_pid])
print(json.dumps([before, get("/")]))
"""


@pytest.mark.postgres
@pytest.mark.skipif("postgresql" not in connection.settings_dict["ENGINE"], reason="needs PostgreSQL")
# serialized_rollback as every committing test here: a flush without it re-creates
# the content types, which the next such test then loads again (a duplicate key).
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_a_persistent_connection_dropped_by_the_database_is_replaced():
    """With CONN_MAX_AGE, the database restarting between two requests
    (its server ends the kept connection) costs the next request nothing: the
    connection is health-checked and reopened instead of the request getting 503."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "CONN_MAX_AGE": "600", "DJANGO_SETTINGS_MODULE": "league.settings",
           "ALLOWED_HOSTS": "testserver"}
    done = subprocess.run([sys.executable, "-c", RECONNECT], cwd=Path(__file__).resolve().parents[2], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [200, 200], done.stderr
