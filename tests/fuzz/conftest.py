"""R3: property-based fuzzing with Hypothesis of every form, the feeds'
query parameters and each import format, for all three games: no 5xx (no
traceback from an import), and nothing written when the input is refused.

Two settings profiles: ``ci`` (the default: a few examples per test, so the whole
suite stays quick) and ``long`` (over 10,000 generated inputs in all):

    HYPOTHESIS_PROFILE=long pytest -m fuzz -p no:cacheprovider
"""

from __future__ import annotations

import os
from html.parser import HTMLParser

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, settings

from league.text import plaintext
from tests.support.world import is_write, logged_in_clients, row_counts, world_in_transaction

_COMMON = dict(
    deadline=None,
    database=None,  # no .hypothesis/ folder in the work tree; failures print their example
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)
# ci: the same examples every run (a failure is reproducible, the run's time stable).
settings.register_profile("ci", max_examples=4, derandomize=True, **_COMMON)
settings.register_profile("long", max_examples=260, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/fuzz/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.fuzz)


@pytest.fixture(scope="package")
def world(django_db_setup, django_db_blocker):
    with world_in_transaction(django_db_blocker) as built:
        yield built


@pytest.fixture(scope="package")
def clients(world, django_db_blocker) -> dict[tuple[str, str], Client]:
    """A logged-in client per game and role (see tests/test_role_matrix.py)."""
    with django_db_blocker.unblock():
        return logged_in_clients(
            world, lambda w, game: {"anonymous": None, "right": w.games[game].right.user, "organiser": w.organiser}
        )


INPUTS = {"count": 0}  # generated inputs tried, printed at the end of the run


def pytest_terminal_summary(terminalreporter):
    if INPUTS["count"]:
        profile = os.environ.get("HYPOTHESIS_PROFILE", "ci")
        terminalreporter.write_line(f"fuzz: {INPUTS['count']} generated inputs tried (profile {profile})")


def pytest_runtest_logfinish(nodeid, location):
    # The running count, for a long run watched from outside (FUZZ_COUNT_FILE).
    if os.environ.get("FUZZ_COUNT_FILE"):
        with open(os.environ["FUZZ_COUNT_FILE"], "a") as out:
            out.write(f"{INPUTS['count']} {nodeid}\n")


class Attempt:
    """One input, in a savepoint rolled back afterwards: what it answered and wrote."""

    def __init__(self):
        INPUTS["count"] += 1
        self.writes: list[str] = []
        self.unplain: list[str] = []  # writes holding a control character (league/text/plaintext.py)
        self.changed = False

    def __enter__(self):
        from django.core.cache import cache

        cache.clear()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self._before = row_counts()
        self._queries = CaptureQueriesContext(connection)
        self._queries.__enter__()
        return self

    def __exit__(self, *exc):
        self._queries.__exit__(*exc)
        if exc[0] is None:
            writes = [q["sql"] for q in self._queries.captured_queries if is_write(q["sql"])]
            self.writes = [sql[:200] for sql in writes]
            self.unplain = [sql[:200] for sql in writes if plaintext.problem(sql, multiline=True)]
            self.changed = row_counts() != self._before
        transaction.set_rollback(True)
        self._atomic.__exit__(*exc)
        return False

    @property
    def wrote(self) -> bool:
        return bool(self.writes) or self.changed


# Forms on a page ------------------------------------------------------------------


class Field:
    def __init__(self, name: str, kind: str, value: str = ""):
        self.name, self.kind, self.value = name, kind, value
        self.options: list[str] = []

    def __repr__(self) -> str:
        return f"Field({self.name!r}, {self.kind!r}, options={self.options[:5]!r})"


class FormParser(HTMLParser):
    """Every POST form of a page: its action and its fields (inputs, selects with
    their options, text areas)."""

    def __init__(self):
        super().__init__()
        self.forms: list[tuple[str, dict[str, Field]]] = []
        self._form: dict[str, Field] | None = None
        self._select: Field | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and (a.get("method") or "").lower() == "post":
            self._form = {}
            self.forms.append((a.get("action") or "", self._form))
        elif self._form is None:
            return
        elif tag == "input" and a.get("name") and a.get("type") not in ("submit", "button"):
            if a["name"] == "csrfmiddlewaretoken":
                return
            field = self._form.setdefault(a["name"], Field(a["name"], a.get("type") or "text", a.get("value") or ""))
            if a.get("type") in ("checkbox", "radio") and a.get("value"):
                field.options.append(a["value"])
        elif tag == "textarea" and a.get("name"):
            self._form[a["name"]] = Field(a["name"], "textarea")
        elif tag == "select" and a.get("name"):
            self._select = self._form[a["name"]] = Field(a["name"], "select")
        elif tag == "option" and self._select is not None:
            self._select.options.append(a.get("value") or "")

    def handle_endtag(self, tag):
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def forms_on(html: str, page: str) -> list[tuple[str, dict[str, Field]]]:
    """The page's POST forms (a form without an action posts to the page), but not
    the log-out button every page has: it would end the shared client's session."""
    from django.urls import reverse

    parser = FormParser()
    parser.feed(html)
    forms = [(action or page, fields) for action, fields in parser.forms]
    return [(action, fields) for action, fields in forms if action.startswith("/") and action != reverse("logout")]
