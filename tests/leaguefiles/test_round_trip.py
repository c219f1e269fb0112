"""Take a league away: every demo league (the Big League on Guild Ball, Dungeon
Bowl with its re-draft and play-offs, DreadBall) is downloaded from its settings
page, the database flushed (a fresh installation: no account, no catalogue, no
league), the file imported with ``manage.py import_league``, and every public
page of the league shown the same.

The comparison: an anonymous visitor walks every page of the league linked from
its page, its fixtures and its standings (coach pages, fixture pages, team pages,
the campaign's pages, the dice log, the play-offs), GET only, on both sides. Each
page's HTML must be equal once ids in addresses are replaced by their place (the
import gives every row a new id; the pages are paired by the link that reached
them), coaches' colours (chosen by id) are blanked, and the per-request CSP
nonce and form keys are blanked. Who acted (a
result's history, a dice roll's entry) is an account, and accounts stay behind:
so before the first walk every such column that may be empty is emptied in the
original, and the pages compared are those the new installation can show.
"""

from __future__ import annotations

import re
from collections import deque

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from django.db.models import Q

from league.caching.writes import changed
from league.models import League
from league.leaguefiles import registry
from league.leaguefiles.columns import is_account
from league.services.demo import load_demos

SEEDS = ("/leagues/{slug}/", "/leagues/{slug}/fixtures/", "/leagues/{slug}/standings.json", "/leagues/{slug}/standings.csv")
IDS = re.compile(r"(?<=/)\d+(?=[/.?#\"'])")
NOISE = [
    (re.compile(r'nonce="[^"]*"'), 'nonce=""'),
    (re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'), "csrf"),
    (re.compile(r'name="idempotency_key" value="[^"]*"'), "key"),
    # A coach's colour is their id's (site_tags.coach_badge_index): a hash of an id, as an address's id is.
    (re.compile(r'(stroke|fill)="#[0-9a-fA-F]{6}"'), r'\1="#colour"'),
    (re.compile(r'class="badge b\d+"'), 'class="badge b"'),
    # A feed's row names its coach by id (the leaderboards' JSON), as an address does.
    (re.compile(r'"coach_id": \d+'), '"coach_id": N'),
]
LINK = re.compile(r'href="(/(?:leagues|fixtures)/[^"#?]*)"')


def _normal(html: str) -> str:
    html = IDS.sub("N", html)
    for pattern, plain in NOISE:
        html = pattern.sub(plain, html)
    return html


def _walk(slug: str, limit: int = 400) -> list[tuple[str, int, str]]:
    """(address with ids replaced, status, normalised body) of every public page
    of the league reachable from its seeds, in the order reached."""
    client = Client()
    seen, out = set(), []
    queue = deque(seed.format(slug=slug) for seed in SEEDS)
    while queue and len(out) < limit:
        path = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        response = client.get(path)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode()
        out.append((IDS.sub("N", path), response.status_code, _normal(text)))
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            for link in LINK.findall(text):
                if (link.startswith(f"/leagues/{slug}/") or link.startswith("/fixtures/")) and "organiser" not in link:
                    queue.append(link)
    return out


def _forget_who_acted() -> None:
    """Empty every account column of the file's models that may be empty (what
    the import leaves empty), telling the cache, as a bulk write must."""
    for part in registry.ordered_parts():
        for field in part.model._meta.concrete_fields:
            if is_account(field) and field.null:
                part.model.objects.exclude(**{field.attname: None}).update(**{field.attname: None})
    changed(Q(pk__isnull=False))


def _download(slug: str) -> bytes:
    league = League.objects.get(slug=slug)
    client = Client()
    client.force_login(league.organisers.first())
    response = client.get(reverse("league:organiser_export", args=[slug]))
    assert response.status_code == 200 and response.streaming
    return b"".join(response.streaming_content)


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_every_demo_league_comes_back_with_the_same_pages(tmp_path):
    load_demos()
    slugs = list(League.objects.order_by("slug").values_list("slug", flat=True))
    assert {"harbour-lights", "neon-dome"} <= set(slugs) and any(League.objects.filter(game_system="dungeonbowl"))
    _forget_who_acted()
    before = {slug: _walk(slug) for slug in slugs}
    files = {}
    for slug in slugs:
        files[slug] = tmp_path / f"{slug}.json"
        files[slug].write_bytes(_download(slug))

    call_command("flush", interactive=False, verbosity=0)
    ContentType.objects.clear_cache()
    assert not League.objects.exists()
    User.objects.create_user("keeper", password="x")
    for slug in slugs:
        call_command("import_league", str(files[slug]), organiser="keeper", verbosity=0)

    for slug in slugs:
        after = _walk(slug)
        assert len(before[slug]) > 5
        assert [page[:2] for page in after] == [page[:2] for page in before[slug]], slug
        for (path, _, old), (_, _, new) in zip(before[slug], after):
            assert new == old, f"{slug}: {path} differs"
