"""The project's settings plus what exists only for the tests: Ringball, a fourth
game (tests/fourth_game), installed as any game app is, to prove a game plugs in
without touching the engine (issue 20.1)."""

from league.settings import *  # noqa: F403

INSTALLED_APPS = [*INSTALLED_APPS, "tests.fourth_game"]  # noqa: F405
