"""scripts/import_cycles.py finds every circle of imports, and only those."""

import importlib.util
from pathlib import Path

import grimp

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "import_cycles.py"
spec = importlib.util.spec_from_file_location("import_cycles", SCRIPT)
import_cycles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(import_cycles)


def graph(*imports: str) -> grimp.ImportGraph:
    built = grimp.ImportGraph()
    for line in imports:
        importer, imported = line.split(" -> ")
        built.add_import(importer=importer, imported=imported)
    return built


def test_circles_are_found_whatever_their_length():
    found = import_cycles.cycles(graph(
        "models -> webhooks", "webhooks -> models",  # two modules
        "a -> b", "b -> c", "c -> a", "c -> leaf",  # three, and a module they use
        "standings -> ranking", "sums -> ranking",  # no circle
    ))
    assert found == [["a", "b", "c"], ["models", "webhooks"]]


def test_a_chain_without_a_circle_is_none():
    chain = [f"m{i} -> m{i + 1}" for i in range(3000)]  # longer than Python's recursion limit
    assert import_cycles.cycles(graph(*chain)) == []
    assert import_cycles.cycles(graph(*chain, "m3000 -> m0")) == [sorted(f"m{i}" for i in range(3001))]


def test_packages_stand_for_their_modules():
    imports = import_cycles.package_imports(graph(
        "league.web.public -> league.ratings.selectors", "league.ratings.charts -> league.web.charts",
        "league.web.public -> league.web.forms",  # inside one package: no import between packages
        "campaigns.views -> league.models", "league.models -> league.rules",
    ))
    assert sorted(imports) == [
        ("campaigns", "league.models"), ("league.models", "league.rules"),
        ("league.ratings", "league.web"), ("league.web", "league.ratings"),
    ]
    assert import_cycles.cycles(import_cycles.package_graph(imports)) == [["league.ratings", "league.web"]]
