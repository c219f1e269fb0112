"""Dungeon Bowl's models are a package of modules, every public name of
which is importable from ``league.dungeonbowl.models`` as it was from the one file."""

import importlib
import inspect
import pkgutil

import league.dungeonbowl.models as package


def _defined_in(module) -> dict[str, object]:
    """The public classes, functions and constants ``module`` itself defines."""
    names = {}
    for name, value in vars(module).items():
        if name.startswith("_"):
            continue
        if inspect.isclass(value) or inspect.isfunction(value):
            if value.__module__ == module.__name__:
                names[name] = value
        elif name.isupper():
            names[name] = value
    return names


def test_every_public_name_of_every_model_module_is_importable_from_the_package():
    modules = [importlib.import_module(f"{package.__name__}.{info.name}") for info in pkgutil.iter_modules(package.__path__)]
    assert {m.__name__.rsplit(".", 1)[1] for m in modules} == {"teams", "league_play", "redraft", "playoffs"}
    for module in modules:
        for name, value in _defined_in(module).items():
            assert getattr(package, name, None) is value, f"{module.__name__}.{name} is not in league.dungeonbowl.models"
            assert name in package.__all__


def test_the_names_callers_use_come_from_the_package():
    from league.dungeonbowl.models import (  # noqa: F401  the import is the test
        GAME_SYSTEM, MAX_GP, SEMI_FINALS, DiceRoll, DungeonBowlSettings, Ending, Honour, Placing, Player,
        PlayoffGame, PlayoffSlot, PlayoffTie, Redraft, RedraftRoll, RedraftStep, Team, TeamSeason, TreasuryLine,
    )
