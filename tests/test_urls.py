"""The engine's own pages come first in the URLconf (league/urls.py), so the most
requested addresses resolve without trying every app's patterns. That
is only safe while no other app's address is one an engine pattern also matches:
each other route, with sample values, must resolve to its own view."""

from __future__ import annotations

import re

from django.urls import URLResolver, resolve

import league.urls

SAMPLES = {"slug": "a-league", "id": "12", "int": "12", "str": "token", "path": "a/b", "uuid": "0" * 8 + "-0000-0000-0000-" + "0" * 12}


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            if pattern.namespace not in ("league", "admin"):
                yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif not str(pattern.pattern).startswith("^"):
            yield prefix + str(pattern.pattern), pattern


def test_no_other_address_is_taken_by_an_engine_pattern():
    checked = 0
    for route, pattern in _routes(league.urls.urlpatterns):
        sample = "/" + re.sub(r"<(?:(\w+):)?\w+>", lambda m: SAMPLES[m.group(1) or "str"], route)
        match = resolve(sample)
        assert match.func == pattern.callback, (route, match.view_name)
        checked += 1
    assert checked > 40
