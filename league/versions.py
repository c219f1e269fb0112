"""A season's version: what keys every cached page and feed built from it.

Standings, their history and the pages built from them are computed once per
change, not per request. Each season carries a ``version`` (a random UUID). Every
write that can change what a season's pages show sets a new one in the same
transaction (an UPDATE of the season row), so:

- until the write commits, other requests read the old version and the old data,
  and cache them together;
- once it commits, the new version has no cache entry yet and the next request
  computes from committed data. A request that read the version before a commit
  and the data after it stores newer data under the old key, which nobody asks
  for again: a page is never staler than the version it was asked for.

The version is a UUID, not a counter, so a restored backup or a reused primary key
can never meet an old cache entry.

Writes are tracked in one place: ``track(model, seasons)`` connects ``post_save``
and ``post_delete`` of ``model`` to a bump of the seasons ``seasons(instance)``
selects (a ``Q`` on Season, one UPDATE query). The engine tracks its own models in
``LeagueConfig.ready()``; games and layers track theirs in their own ``ready()``.
Bulk writes (``bulk_create``, ``update``) send no signals: the services that use
them call ``bump`` themselves.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.db.models import Q
from django.db.models.signals import post_delete, post_save

_TRACKED: dict[type, Callable[[Any], Q]] = {}


def bump(seasons: Q) -> None:
    """Give every season selected by ``seasons`` a new version."""
    from league.models import Season

    Season.objects.filter(seasons).update(version=uuid.uuid4())


def track(model: type, seasons: Callable[[Any], Q]) -> None:
    """Bump the seasons ``seasons(instance)`` selects whenever a ``model`` row is
    saved or deleted."""
    if model in _TRACKED:
        return
    _TRACKED[model] = seasons

    def changed(sender, instance, **kwargs):
        if kwargs.get("raw"):  # loaddata: the restored seasons bring their own versions
            return
        bump(_TRACKED[sender](instance))

    post_save.connect(changed, sender=model, weak=False, dispatch_uid=f"versions:{model._meta.label}:save")
    post_delete.connect(changed, sender=model, weak=False, dispatch_uid=f"versions:{model._meta.label}:delete")


def tracked() -> tuple[type, ...]:
    return tuple(_TRACKED)


def cache_key(season, name: str) -> str:
    return f"season:{season.pk}:{season.version}:{name}"


def cached(season, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per version of ``season`` (Django's cache framework)."""
    key = cache_key(season, name)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, timeout=None)
    return value
