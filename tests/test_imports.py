"""The dtcli import graph, read from the source with ``ast``: no cycles, no private names across modules.

Every ``import``/``from ... import`` of a dtcli module counts, also those inside functions (a deferred
import hides a cycle, it does not remove it). ``from pkg import name`` is an edge to the submodule
``pkg.name`` when that is a module, else to ``pkg`` (a package's ``__init__`` is a module like any other).
A private name (one leading underscore, not a dunder) may be used only inside the module that defines it:
``from x import _name`` and ``x._name`` on an imported module are offences.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dtcli"
ROOT = "dtcli"


def module_sources(package: Path = PACKAGE) -> tuple[dict[str, str], set[str]]:
    """(dotted module name -> source, names of packages) for every ``.py`` file under ``package``."""
    sources, packages = {}, set()
    for path in sorted(package.rglob("*.py")):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
            packages.add(".".join(parts))
        sources[".".join(parts)] = path.read_text()
    return sources, packages


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _owning_module(name: str, modules) -> str | None:
    """The longest dotted prefix of ``name`` that is one of ``modules`` (``import a.b.c`` loads ``a.b.c``)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def _absolute(module: str, packages: set[str], node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names, resolving a relative one against ``module``'s package."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if module in packages else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return ".".join(reversed(names))


def scan(sources: dict[str, str], packages: set[str]) -> tuple[dict[str, set[str]], list[str]]:
    """(import graph: module -> dtcli modules it imports, private-name offences as messages)."""
    graph = {name: set() for name in sources}
    offences = []
    for module, text in sources.items():
        aliases = {}  # local name -> the dtcli module it stands for
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _owning_module(alias.name, sources)
                    if target is None:
                        continue
                    graph[module].add(target)
                    if alias.asname:
                        aliases[alias.asname] = target
                    else:
                        top = alias.name.split(".")[0]
                        aliases[top] = top
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(module, packages, node)
                if source not in sources:
                    continue
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    target = sub if sub in sources else source
                    graph[module].add(target)
                    if target == sub:
                        aliases[alias.asname or alias.name] = sub
                    if is_private(alias.name) and target != module:
                        offences.append(f"{module}: from {source} import {alias.name} (line {node.lineno})")
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and is_private(node.attr)):
                continue
            dotted = _dotted(node.value)
            if dotted is None or dotted.split(".")[0] not in aliases:
                continue
            first, *rest = dotted.split(".")
            owner = ".".join([aliases[first], *rest])
            if owner in sources and owner != module:
                offences.append(f"{module}: {dotted}.{node.attr} (line {node.lineno}) uses a private name of {owner}")
    for module in graph:
        graph[module].discard(module)
    return graph, sorted(set(offences))


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative), each sorted."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            child = next(edges, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1:
                    found.append(sorted(members))
    return sorted(found)


def shortest_cycle(graph: dict[str, set[str]], start: str) -> list[str]:
    """The shortest path start -> ... -> start (breadth first), as module names."""
    parent = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for child in sorted(graph[node]):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return [*reversed(path), start]
            if child not in parent:
                parent[child] = node
                queue.append(child)
    return []


def cycle_report(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{len(members)} modules: {', '.join(members)}; e.g. {' -> '.join(shortest_cycle(graph, members[0]))}"
        for members in components(graph)
    ]


def test_no_import_cycles():
    graph, _ = scan(*module_sources())
    cycles = cycle_report(graph)
    assert not cycles, "import cycles (also through imports inside functions):\n" + "\n".join(cycles)


def test_no_private_names_across_modules():
    _, offences = scan(*module_sources())
    assert not offences, "private names used outside their module:\n" + "\n".join(offences)


def test_the_checks_find_what_they_look_for():
    sources = {
        "pkg": "from pkg import a\n",
        "pkg.a": "from pkg.b import run\n",
        "pkg.b": "def run():\n    from pkg import c\n    return c.go()\n",
        "pkg.c": "import pkg.a\n",
        "pkg.d": "from pkg.sub import _hidden\nimport pkg.sub as s\nx = s._other + s.public\n",
        "pkg.sub": "from . import leaf\n_hidden = _other = public = 1\n",
        "pkg.sub.leaf": "from .. import d\nfrom ._x import y\n",
        "pkg.e": "from pkg import sub\nsub.leaf._z\nimport pkg.sub\npkg.sub.__name__\n",
    }
    graph, offences = scan(sources, packages={"pkg", "pkg.sub"})
    assert graph["pkg"] == {"pkg.a"}
    assert graph["pkg.b"] == {"pkg.c"}
    assert graph["pkg.sub"] == {"pkg.sub.leaf"}
    assert graph["pkg.sub.leaf"] == {"pkg.d"}
    assert components(graph) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.d", "pkg.sub", "pkg.sub.leaf"]]
    assert shortest_cycle(graph, "pkg.a") == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    assert cycle_report(graph)[0] == "3 modules: pkg.a, pkg.b, pkg.c; e.g. pkg.a -> pkg.b -> pkg.c -> pkg.a"
    assert offences == [
        "pkg.d: from pkg.sub import _hidden (line 1)",
        "pkg.d: s._other (line 3) uses a private name of pkg.sub",
        "pkg.e: sub.leaf._z (line 2) uses a private name of pkg.sub.leaf",
    ]
