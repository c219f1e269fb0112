"""The engine knows no game layer (issue 6): no module under ``league/`` imports the
Big League's ``campaigns`` app, except the project's settings and root URLs. A
layer plugs in through ``league.layers`` instead. Read with ``ast``, so an import
inside a function or a ``from campaigns...`` line counts, and a word in a
comment or a string does not."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

LEAGUE = Path(__file__).resolve().parent.parent / "league"
ALLOWED = {LEAGUE / "settings.py", LEAGUE / "urls.py"}
LAYER_APPS = ("campaigns",)


def engine_modules() -> list[Path]:
    return sorted(
        path for path in LEAGUE.rglob("*.py") if path not in ALLOWED and "migrations" not in path.relative_to(LEAGUE).parts
    )


def imported_modules(source: str) -> list[tuple[int, str]]:
    """Every module an import statement names, with its line (relative imports
    stay inside the package, so they name no layer)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def layer_imports(source: str) -> list[tuple[int, str]]:
    return [
        (line, name)
        for line, name in imported_modules(source)
        if any(name == app or name.startswith(app + ".") for app in LAYER_APPS)
    ]


def test_the_check_sees_every_form_of_import():
    source = (
        "import campaigns\nimport campaigns.models as m\nfrom campaigns import setup\n"
        "def f():\n    from campaigns.ledgers import adjust\n"
        "# import campaigns\nx = 'from campaigns import nothing'\nimport campaignsx\nfrom league import layers\n"
    )
    assert layer_imports(source) == [
        (1, "campaigns"), (2, "campaigns.models"), (3, "campaigns"), (5, "campaigns.ledgers"),
    ]


def test_engine_modules_are_found():
    names = {path.relative_to(LEAGUE).as_posix() for path in engine_modules()}
    assert {"models.py", "services.py", "importer.py", "rules/guildball.py", "layers.py"} <= names
    assert "settings.py" not in names and not any(name.startswith("migrations/") for name in names)


@pytest.mark.parametrize("path", engine_modules(), ids=lambda path: path.relative_to(LEAGUE).as_posix())
def test_engine_module_imports_no_layer(path: Path):
    assert layer_imports(path.read_text(encoding="utf-8")) == []
