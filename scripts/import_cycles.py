"""The import cycles of the code: every group of modules that import
each other, directly or through others, counting imports inside functions.

    python scripts/import_cycles.py       # prints each cycle; exits 1 if there is one

grimp (which import-linter brings) builds the graph; the cycles are its strongly
connected components of more than one module. Imports under ``if TYPE_CHECKING:``
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


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    found = cycles(grimp.build_graph(*ROOT_PACKAGES, cache_dir=None, exclude_type_checking_imports=True))
    print(f"{len(found)} import cycle(s), {sum(map(len, found))} modules in them")
    for component in found:
        print(f"\n{len(component)} modules:\n  " + "\n  ".join(component))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
