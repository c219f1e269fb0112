"""The import cycles of the code: every group of modules that import
each other, directly or through others, counting imports inside functions.

    python scripts/import_cycles.py             # prints each cycle; exits 1 if there is one
    python scripts/import_cycles.py --packages  # the circles between packages, a report

grimp (which import-linter brings) builds the graph; the cycles are its strongly
connected components of more than one module. With ``--packages`` each module
stands for its package (``league.web.public`` for ``league.web``, every module of
``campaigns`` for ``campaigns``), and each circle is printed with the imports
between its packages: those the layers contract lets run back up
(.importlinter, ``ignore_imports``) make them; imports under ``if TYPE_CHECKING:``
never run and are left out, as .importlinter leaves them out.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT_PACKAGES = ("league", "campaigns")


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's strongly connected components of more than one module, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        # Iterative, so a long chain of imports cannot exhaust Python's recursion limit.
        work = [(module, iter(sorted(graph.find_modules_directly_imported_by(module))))]
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return sorted(found, key=len, reverse=True)


def package_of(module: str) -> str:
    """The package of ``league`` a module is in (``league`` for the root itself);
    a layer on the engine counts as one package."""
    parts = module.split(".")
    return parts[0] if parts[0] != "league" or len(parts) == 1 else ".".join(parts[:2])


def package_imports(graph: grimp.ImportGraph) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """Every import between two packages, as (importer, imported) modules under
    (importing package, imported package)."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            pair = (package_of(module), package_of(imported))
            if pair[0] != pair[1]:
                found.setdefault(pair, []).append((module, imported))
    return found


def package_graph(imports: dict[tuple[str, str], list[tuple[str, str]]]) -> grimp.ImportGraph:
    squashed = grimp.ImportGraph()
    for importer, imported in imports:
        squashed.add_import(importer=importer, imported=imported)
    return squashed


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    graph = grimp.build_graph(*ROOT_PACKAGES, cache_dir=None, exclude_type_checking_imports=True)
    if "--packages" in sys.argv[1:]:
        imports = package_imports(graph)
        found = cycles(package_graph(imports))
        print(f"{len(found)} circle(s) between packages")
        for component in found:
            print(f"\n{len(component)} packages: " + ", ".join(component))
            for (importer, imported), lines in sorted(imports.items()):
                if importer in component and imported in component:
                    print("  " + "\n  ".join(f"{a} -> {b}" for a, b in lines))
        return 0
    found = cycles(graph)
    print(f"{len(found)} import cycle(s), {sum(map(len, found))} modules in them")
    for component in found:
        print(f"\n{len(component)} modules:\n  " + "\n  ".join(component))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
