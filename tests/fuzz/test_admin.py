"""The organiser's admin, fuzzed: every changelist of the
project's apps with its filters (read from the page's own filter links), search,
date hierarchy, ordering and page given any value, and every add form with values
sometimes right and often not (its management form's counts included). Never a
5xx; a GET writes nothing; a refused add writes nothing."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from hypothesis import example, given, note
from hypothesis import strategies as st

from tests.fuzz.conftest import Attempt, forms_on
from tests.fuzz.test_forms import DATES, NUMBERS, TEXT, draw_post
from tests.support.world import GAMES

PROJECT_APPS = ("league", "campaigns", "dungeonbowl", "dreadball", "guildball")
MODELS = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry if model._meta.app_label in PROJECT_APPS
)
ALWAYS = ["q", "o", "p", "e", "_facets", "all"]  # the changelist's own parameters
WORDS = st.lists(st.sampled_from(["velocity", "ada", "league", "\x00", "'", '"', "%", "_", "é"]), max_size=1200).map(" ".join)


def _filter_values(html: str) -> dict[str, list[str]]:
    """Each parameter the page's own links carry (filters, sorting, pages), with the
    values they offer."""
    found: dict[str, list[str]] = {}
    for href in set(_hrefs(html)):
        for name, value in parse_qsl(urlsplit(href).query, keep_blank_values=True):
            found.setdefault(name, []).append(value)
    return found


def _hrefs(html: str):
    start = 0
    while (at := html.find('href="?', start)) != -1:
        end = html.find('"', at + 6)
        yield html[at + 6:end].replace("&amp;", "&")
        start = end


def _client_for(clients, url: str) -> Client:
    """The organiser, or a superuser for what only a superuser may do (the catalogues)."""
    organiser = clients[GAMES[0], "organiser"]
    if organiser.get(url).status_code == 200:
        return organiser
    root, _ = get_user_model().objects.get_or_create(username="fuzz-root", defaults={"is_staff": True, "is_superuser": True})
    client = Client()
    client.force_login(root)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize("app,model", MODELS)
def test_changelist_filters_never_give_a_5xx(app, model, world, clients):
    url = reverse(f"admin:{app}_{model}_changelist")
    client = _client_for(clients, url)
    page = client.get(url)
    assert page.status_code == 200, url
    offered = _filter_values(page.content.decode())
    hierarchy = admin.site.get_model_admin(apps.get_model(app, model)).date_hierarchy
    names = sorted({*offered, *ALWAYS, *([f"{hierarchy}__{part}" for part in ("year", "month", "day")] if hierarchy else [])})
    value = {name: st.one_of(st.sampled_from(offered[name]), NUMBERS, TEXT, DATES) if offered.get(name)
             else st.one_of(NUMBERS, TEXT, DATES) for name in names}
    value["q"] = st.one_of(TEXT, WORDS)

    @example(query={"q": "velocity " * 1000})  # SQLite: "Expression tree is too large"
    @example(query={f"{hierarchy or 'date'}__year": "99999999999999999999"})  # OverflowError
    @given(query=st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True).flatmap(
        lambda chosen: st.fixed_dictionaries({name: value[name] for name in chosen})))
    def fuzz(query):
        note(f"GET {url} {query!r}"[:2000])
        with Attempt() as attempt:
            response = client.get(url, query)
        assert response.status_code < 500, f"{url} {query!r}: {response.status_code}"
        assert not attempt.wrote, f"GET {url} wrote {attempt.writes}"

    fuzz()


def _addable(app: str, model: str) -> bool:
    """Whether anyone (a superuser) may add one in the admin; the others are written
    by the services only."""
    from types import SimpleNamespace

    user = SimpleNamespace(is_superuser=True, is_staff=True, is_active=True, has_perm=lambda *args: True)
    return admin.site.get_model_admin(apps.get_model(app, model)).has_add_permission(SimpleNamespace(user=user))


@pytest.mark.django_db
@pytest.mark.parametrize("app,model", [(app, model) for app, model in MODELS if _addable(app, model)])
def test_add_forms_refuse_bad_input_cleanly(app, model, world, clients):
    url = reverse(f"admin:{app}_{model}_add")
    client = _client_for(clients, url)
    page = client.get(url)
    assert page.status_code == 200, url
    forms = [(action, fields) for action, fields in forms_on(page.content.decode(), url) if "logout" not in action]
    assert forms, f"no form on {url}"

    @given(data=st.data())
    def fuzz(data):
        action, post = draw_post(data, forms)
        note(f"POST {action} {post!r}"[:2000])
        with Attempt() as attempt:
            response = client.post(action, post)
        assert response.status_code < 500, f"{action}: {response.status_code}"
        if response.status_code not in (301, 302, 303):
            assert not attempt.wrote, f"{action} refused ({response.status_code}) but wrote {attempt.writes}"

    fuzz()
