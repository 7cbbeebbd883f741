"""Nothing in dtcli recurses (man/dtree-architecture.7): trees reach 10,000 levels and models 100,000, past any stack.

The check reads every module with ``ast`` and builds, per module, who calls
whom by name: a function calling a module-level function (or one nested in
it) by its bare name, a method calling ``self.name(...)`` or
``cls.name(...)`` of its own class. Any cycle (a function calling itself,
or two calling each other) fails, unless listed in ``ALLOWED`` with the
reason it cannot grow with the input, and that list is empty.
"""

from __future__ import annotations

import ast

from sources import cycles, module_sources

SOURCES, _ = module_sources()
ALLOWED: dict[str, str] = {}  # "module:function" -> why its recursion is bounded (none is)


class _Calls(ast.NodeVisitor):
    """The call graph of one module: nodes ``qualified.name``, edges by the rules above."""

    def __init__(self):
        self.edges: dict[str, set[str]] = {}
        self.module_functions: set[str] = set()
        self.scopes: list[tuple[str, str | None, set[str]]] = []  # (qualified name, class, nested names)

    def collect(self, tree: ast.Module) -> None:
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.module_functions.add(node.name)
        self.visit(tree)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for item in node.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(item, f"{node.name}.{item.name}", node.name)
            else:
                self.visit(item)

    def visit_FunctionDef(self, node) -> None:
        outer = self.scopes[-1][0] + "." if self.scopes else ""
        self._function(node, outer + node.name, None)

    visit_AsyncFunctionDef = visit_FunctionDef

    def _function(self, node, name: str, cls: str | None) -> None:
        nested = {item.name for item in ast.walk(node) if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}
        nested.discard(node.name)
        self.edges.setdefault(name, set())
        self.scopes.append((name, cls, nested))
        for child in node.body:
            self.visit(child)
        self.scopes.pop()

    def visit_Call(self, node: ast.Call) -> None:
        if self.scopes:
            name, cls, nested = self.scopes[-1]
            target = self._target(node.func, name, cls, nested)
            if target is not None:
                self.edges[name].add(target)
        self.generic_visit(node)

    def _target(self, func, name: str, cls: str | None, nested: set[str]) -> str | None:
        if isinstance(func, ast.Name):
            if func.id == name.rsplit(".", 1)[-1] and cls is None and "." in name:
                return name  # a nested function calling itself
            if func.id in nested:
                return f"{name}.{func.id}"
            for outer, outer_cls, outer_nested in reversed(self.scopes[:-1]):
                if func.id in outer_nested or (outer_cls is None and outer.rsplit(".", 1)[-1] == func.id):
                    return f"{outer}.{func.id}" if func.id in outer_nested else outer
            if func.id in self.module_functions:
                return func.id
            return None
        scope_cls = cls or next((c for _, c, _ in reversed(self.scopes) if c), None)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and scope_cls:
            if func.value.id in ("self", "cls"):
                return f"{scope_cls}.{func.attr}"
        return None


def recursive_functions(source: str) -> list[list[str]]:
    calls = _Calls()
    calls.collect(ast.parse(source))
    return cycles(calls.edges, self_loops=True)


def test_no_function_recurses():
    found = {}
    for module, source in sorted(SOURCES.items()):
        for cycle in recursive_functions(source):
            if not all(f"{module}:{name}" in ALLOWED for name in cycle):
                found[module] = found.get(module, []) + [cycle]
    assert not found, f"recursive functions (write the walk with an explicit stack): {found}"


def test_the_allowed_list_is_empty():
    assert ALLOWED == {}


def test_the_check_finds_recursion():
    source = """
def walk(node):
    for child in node.children:
        walk(child)

def even(n):
    return n == 0 or odd(n - 1)

def odd(n):
    return n != 0 and even(n - 1)

class Tree:
    def size(self, node):
        return 1 + sum(self.size(c) for c in node.children)

    def choose(self, found):
        return choose(found)  # the module's choose, not this method

def choose(found):
    return max(found)

def outer(x):
    def inner(y):
        return inner(y - 1) if y else 0
    return inner(x)

def flat(node):
    stack = [node]
    while stack:
        stack.extend(stack.pop().children)
"""
    assert sorted(recursive_functions(source)) == [["Tree.size"], ["even", "odd"], ["outer.inner"], ["walk"]]
