"""The architecture is kept by import-linter's contracts in ``.importlinter``,
run by ``.ci/run`` and here, so the suite fails too: the engine imports no game
and no layer, and a game imports no layer. A game and a layer plug in through
registries filled from their ``AppConfig.ready()`` (``league.rules``,
``league.layers``) instead.

The contracts are also run on a small tree of made-up modules, one bad import at a
time, to show each of them can fail (an import inside a function counts too)."""

from __future__ import annotations

import configparser
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / ".importlinter"
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", LINT, str(CONFIG), "--no-cache", "--no-logo"],
        cwd=cwd, capture_output=True, text=True, timeout=120,
    )


def test_the_project_keeps_every_contract():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def config() -> configparser.ConfigParser:
    parsed = configparser.ConfigParser()
    parsed.read(CONFIG, encoding="utf-8")
    return parsed


def layers() -> configparser.SectionProxy:
    return config()["importlinter:contract:layers"]


def ignored_imports() -> list[tuple[str, str]]:
    """The layers contract's imports that run back up, as (importer, imported): none
    today, and the test holds whatever a later contract lists."""
    lines = [line.strip() for line in layers().get("ignore_imports", "").splitlines()]
    return [tuple(line.split(" -> ")) for line in lines if line and not line.startswith("#")]


def named_modules() -> list[str]:
    """Every module of ours that a contract names (import-linter refuses a contract
    naming a module the tree lacks), as a file path: the layers' floors in their
    container too."""
    parsed = config()
    names = set()
    for section in parsed.sections():
        for key in ("source_modules", "forbidden_modules", "ancestors"):
            names.update(parsed[section].get(key, "").split())
    for floor in layers()["layers"].split("\n"):
        for tail in floor.replace(":", "|").split("|"):
            if tail.strip():
                names.add(f"league.{tail.strip()}")
    names.update(module for pair in ignored_imports() for module in pair)
    ours = sorted(n for n in names if n.split(".")[0] in ("league", "campaigns") and "*" not in n)
    return [n.replace(".", "/") + "/__init__.py" if n in ("league.dungeonbowl.models",) else n.replace(".", "/") + ".py"
            for n in ours]


def project(tmp_path: Path, bad: dict[str, str]) -> Path:
    """A tree with the packages the contracts name (and a game of its own), each
    module empty unless ``bad`` gives its text."""
    modules = [
        "league/__init__.py", "league/models.py", "league/rules/__init__.py", "league/settings.py",
        "league/guildball/__init__.py", "league/guildball/rules.py", "league/dungeonbowl/__init__.py",
        "league/dungeonbowl/rules.py", "league/dreadball/__init__.py", "campaigns/__init__.py", "campaigns/layer.py",
    ]
    packages = {name.removesuffix("/__init__.py") for name in modules if name.endswith("/__init__.py")}
    # The imports the layers contract lets run back up are in the tree, as in the
    # code: the contract refuses to ignore an import that is not there.
    imports: dict[str, str] = {}
    for importer, imported in ignored_imports():
        imports[importer.replace(".", "/") + ".py"] = imports.get(importer.replace(".", "/") + ".py", "") + f"import {imported}\n"
    named = [n for n in named_modules() if n.removesuffix(".py") not in packages]
    for name in dict.fromkeys([*modules, *named, *bad]):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(bad.get(name, imports.get(name, "")), encoding="utf-8")
    # A module the contracts name inside a package (league.standings.ranking) needs
    # each package above it to exist.
    for folder in {path.parent for path in tmp_path.rglob("*.py")}:
        while folder != tmp_path and not (folder / "__init__.py").exists():
            (folder / "__init__.py").write_text("", encoding="utf-8")
            folder = folder.parent
    return tmp_path


def test_a_clean_tree_keeps_the_contracts(tmp_path):
    # A game imports the engine and its own modules; a layer imports the engine and a game.
    tree = project(tmp_path, {
        "league/guildball/rules.py": "from league import models\nfrom league.guildball import __name__\n",
        "campaigns/layer.py": "import league.guildball.rules\nimport league.rules\n",
    })
    run = lint(tree)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("module,source,contract", [
    ("league/models.py", "from league.guildball import rules\n", "The engine imports no game"),
    ("league/rules/__init__.py", "def f():\n    import league.dungeonbowl.rules\n", "The engine imports no game"),
    # Through another module: league.models -> league.rules -> a game.
    ("league/models.py", "import league.rules\n", None),
    ("league/dreadball/__init__.py", "from league.dungeonbowl import rules\n", "The engine imports no game"),
    ("league/models.py", "from campaigns import layer\n", "The engine imports no layer"),
    ("league/guildball/rules.py", "import campaigns.layer\n", "Games import no layer"),
    # A floor imports one above it: the models a page, the cache a write.
    ("league/models.py", "import league.web\n", "Layers"),
    ("league/caching/versions.py", "def f():\n    from league import services\n", "Layers"),
    # A package on no floor, however harmless: it must be placed.
    ("league/newcomer.py", "", "Layers"),
    ("campaigns/setup.py", "import campaigns.web\n", "The Big League's writes and reads import no page code"),
    ("league/services.py", "from league.outbox import notifications\n", "Writes record facts"),
])
def test_each_contract_can_fail(tmp_path, module, source, contract):
    bad = {module: source}
    if contract is None:  # the indirect case
        bad["league/rules/__init__.py"] = "from league.dreadball import __name__\n"
        contract = "The engine imports no game"
    run = lint(project(tmp_path, bad))
    assert run.returncode == 1, run.stdout + run.stderr
    broken = [line for line in run.stdout.splitlines() if " BROKEN" in line]
    assert any(line.startswith(contract) for line in broken), run.stdout


def test_the_layers_let_at_most_five_imports_run_back_up():
    """Each import a lower floor makes of a higher one is listed with its reason, and
    there are few enough to be exceptions: today none."""
    assert len(ignored_imports()) <= 5
    assert "exhaustive = true" in "\n".join(f"{k} = {v}" for k, v in layers().items())
