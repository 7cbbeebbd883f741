"""The dtcli import graph (read by tests/sources.py): no cycles, no private names used across modules.

Imports inside functions count: a deferred import hides a cycle, it does not remove it. A private
name (one leading underscore, not a dunder) may be used only inside the module that defines it:
``from x import _name`` and ``x._name`` on an imported module are offences. Each failure lists every
offender: a cycle as its strongly connected component and a shortest cycle through it.
"""

from __future__ import annotations

from collections import deque

from sources import cycles, module_sources, scan


def components(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    return cycles(graph)


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
