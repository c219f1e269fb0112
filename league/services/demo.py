"""Demo data for ``manage.py quickstart``: every registered layer's demo
(``league.layers``), and the engine helpers the demos share."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from league import layers
from league.facts import kinds as fact
from league.facts import recording as facts
from league.outbox.quiet import quiet

# Every demo league is run by the same organiser, and every demo coach has the same
# password, so one set of credentials tries them all.
ORGANISER_USERNAME = "longshanks"
ORGANISER_PASSWORD = "longshanks-demo"
COACH_PASSWORD = "coach-demo"


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str
    role: str


def account(username: str, password: str, **fields):
    """A demo login, created once with ``password``; an existing one is left as it is."""
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"email": f"{username}@example.com", **fields}
    )
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def load_demos() -> list[layers.DemoReport]:
    """Load every registered layer's demo (each adds nothing when run again), with
    notifications off: the demo's matches are played at once, not waited on. Then,
    when a demo added anything, the fact that the demo is loaded, whose ratings
    follower rates its results before the site opens (run again: no fact)."""
    with quiet():
        reports = [layer.demo() for layer in layers.layers() if layer.demo is not None]
    if any(report.loaded for report in reports):
        facts.record(fact.DEMO_LOADED, by=None)
    return reports


def demo_accounts() -> list[tuple[str, str, str]]:
    """(role, username, password) of every demo account worth printing."""
    return [acc for layer in layers.layers() if layer.demo_accounts is not None for acc in layer.demo_accounts()]
