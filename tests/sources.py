"""dtcli's source read with ``ast``, nothing imported: its modules and the dtcli modules each imports.

Every ``import``/``from ... import`` counts, also those inside functions.
``from pkg import name`` is an edge to the submodule ``pkg.name`` when that is
a module, else to ``pkg`` (a package's ``__init__`` is a module like any
other). A private name has one leading underscore and is not a dunder.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "dtcli"


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


def external_imports(text: str) -> set[str]:
    """The top-level names of the modules outside dtcli that ``text`` imports (``numpy``, ``numba``, ...)."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names - {"dtcli"}


def cycles(graph: dict[str, set[str]], self_loops: bool = False) -> list[list[str]]:
    """The strongly connected components of ``graph`` that are cycles: more than one node, or (with
    ``self_loops``) one node with an edge to itself; each sorted, the list sorted. Tarjan's
    algorithm, iteratively (the tests keep the no-recursion rule too); edges to nodes that are not
    keys of ``graph`` are ignored."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in graph:
                    continue
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or (self_loops and node in graph[node]):
                    found.append(sorted(component))
    return sorted(found)
