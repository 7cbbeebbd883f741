"""Two trees compared node by node, whatever the order of their branches (``dtree diff``).

The trees are walked together from the roots with a stack (no recursion: trees reach 10,000
levels). Two nodes at the same place pair up; a split's branches pair by what they stand for,
never by position: a numeric test's ``<=`` and ``>``; a nominal or subset test's branches by the
set of values each takes (``Outlook = Sunny`` is ``{Sunny}``; ``Car in {Sports}`` is ``{Sports}``
and its other branch every other value of ``Car``), so nominal branches match by value name,
CART subsets match as sets (``in {a}`` is ``not in {b, c}``'s other side), and a two-valued
attribute's nominal test is its subset test. A pair matches when both are leaves with the same
label, or splits with the same test, and their counts agree (by class name: class order does
not matter); training metadata (source, sha256, parameters, scores) is never compared. Below
two different tests (another attribute) nothing pairs: those nodes exist in one tree only.
"""

from __future__ import annotations

from dtcli.compare.findings import EXACT, ROOT, Comparison, Difference, Summary, Tolerance, compare_schemas
from dtcli.model.colnames import name_key, same_name
from dtcli.model.tree import Node, NumericTest, SubsetTest, Tree


def compare_trees(a: Tree, b: Tree, tolerance: Tolerance = EXACT) -> Comparison:
    """The :class:`Comparison` of tree ``a`` with tree ``b`` (differences in ``a``'s preorder)."""
    out = Comparison("tree", Summary("nodes", a.root.n_nodes(), b.root.n_nodes()))
    compare_schemas(a.schema, b.schema, out)
    _metadata_notes(a, b, out)
    pairing = _Pairing(a, b, tolerance)
    stack = [(a.root, b.root, ROOT)]
    while stack:
        node_a, node_b, path = stack.pop()
        if node_b is None or node_a is None:
            node, side = (node_a, "A") if node_b is None else (node_b, "B")
            out.summary.add_only(side, node.n_nodes())
            out.record(Difference.only(path, side, pairing.view(node, side)))
            continue
        aspects, children = pairing.pair(node_a, node_b, path)
        if aspects:
            out.summary.differing += 1
            out.record(Difference(path, tuple(aspects), pairing.view(node_a, "A"), pairing.view(node_b, "B")))
        else:
            out.summary.matching += 1
        stack.extend(reversed(children))
    return out


def _metadata_notes(a: Tree, b: Tree, out: Comparison) -> None:
    """What differs in how the trees were made or are applied, without being part of the tree."""
    if a.algorithm != b.algorithm:
        out.notes.append(f"grown by other algorithms: {a.algorithm} in A, {b.algorithm} in B")
    missing = [tree.parameters.get("missing", "fractional") for tree in (a, b)]
    if missing[0] != missing[1]:
        out.notes.append(
            f"missing values are handled differently (--missing {missing[0]} in A, {missing[1]} in B): "
            "rows with missing values may be predicted differently"
        )


class _Pairing:
    """Compares two paired nodes and pairs their children; knows both trees' classes."""

    def __init__(self, a: Tree, b: Tree, tolerance: Tolerance):
        self.tolerance = tolerance
        self.classes = {"A": a.schema.classes, "B": b.schema.classes}
        self.regression = {"A": a.schema.is_regression, "B": b.schema.is_regression}
        index_a = {name_key(c): i for i, c in enumerate(a.schema.classes)}
        index_b = {name_key(c): i for i, c in enumerate(b.schema.classes)}
        names = list(index_a) + [c for c in index_b if c not in index_a]
        self.by_name = [(index_a.get(c), index_b.get(c)) for c in names]

    def pair(self, node_a: Node, node_b: Node, path) -> tuple[list[str], list]:
        """(what differs, the child pairs to compare next: ``(child_a, child_b, path)``, None where a
        child has no partner)."""
        aspects = self._payload(node_a, node_b)
        if node_a.is_leaf and node_b.is_leaf:
            return aspects, []
        if node_a.is_leaf or node_b.is_leaf:
            return ["kind", *aspects], _unpaired(node_a, node_b, path)
        how, children = _branches(node_a, node_b, path, self.tolerance)
        return ([how] if how else []) + aspects, children

    def _payload(self, node_a: Node, node_b: Node) -> list[str]:
        """``counts`` and (two leaves) ``label``; a regression node's ``counts`` (its weight) and ``value``."""
        if self.regression["A"] or self.regression["B"]:
            if not (self.regression["A"] and self.regression["B"]):
                return ["counts"]
            same = self.tolerance.same_count
            return [
                *(["counts"] if not same(node_a.weight, node_b.weight) else []),
                *(["value"] if not same(float(node_a.value or 0.0), float(node_b.value or 0.0)) else []),
            ]
        aspects = []
        if not all(
            self.tolerance.same_count(
                0.0 if i is None else float(node_a.counts[i]), 0.0 if j is None else float(node_b.counts[j])
            )
            for i, j in self.by_name
        ):
            aspects.append("counts")
        if node_a.is_leaf and node_b.is_leaf:
            if not same_name(self.classes["A"][node_a.label], self.classes["B"][node_b.label]):
                aspects.append("label")
        return aspects

    def view(self, node: Node, side: str) -> dict:
        """A node as plain data: its kind, test, counts by class name (or weight and mean), label."""
        out: dict = {"kind": "leaf" if node.is_leaf else "split"}
        if node.test is not None:
            out["test"] = split_view(node.test)
        if self.regression[side]:
            out.update(weight=float(node.weight), value=float(node.value or 0.0))
        else:
            classes = self.classes[side]
            out.update(counts={c: float(x) for c, x in zip(classes, node.counts)}, label=classes[node.label])
        return out


def split_view(test) -> dict:
    """A test as the model file writes it: kind, attribute, and a threshold or the subset's values."""
    out = {"kind": test.kind, "attribute": test.attribute.name}
    if isinstance(test, NumericTest):
        out["threshold"] = float(test.threshold)
    elif isinstance(test, SubsetTest):
        out["values"] = list(test.values)
    return out


def _unpaired(node_a: Node, node_b: Node, path) -> list:
    """Every child of either node, each without a partner (A's first)."""
    out = [(child, None, path / label) for child, label in zip(node_a.children, _labels(node_a))]
    return out + [(None, child, path / label) for child, label in zip(node_b.children, _labels(node_b))]


def _labels(node: Node) -> list[str]:
    return node.test.branch_labels() if node.test is not None else []


def _branches(node_a: Node, node_b: Node, path, tolerance: Tolerance) -> tuple[str | None, list]:
    """(what differs in the tests: None, ``test``, ``threshold`` or ``branches``; the child pairs)."""
    test_a, test_b = node_a.test, node_b.test
    numeric = (isinstance(test_a, NumericTest), isinstance(test_b, NumericTest))
    if not same_name(test_a.attribute.name, test_b.attribute.name) or numeric[0] != numeric[1]:
        return "test", _unpaired(node_a, node_b, path)
    labels = _labels(node_a)
    if numeric[0]:
        how = None if tolerance.same_threshold(test_a.threshold, test_b.threshold) else "threshold"
        return how, [(ca, cb, path / label) for ca, cb, label in zip(node_a.children, node_b.children, labels)]
    keys_a, keys_b = value_sets(test_a), value_sets(test_b)
    where_b = {key: k for k, key in enumerate(keys_b)}
    children = []
    for child, key, label in zip(node_a.children, keys_a, labels):
        k = where_b.get(key)
        children.append((child, None if k is None else node_b.children[k], path / label))
    common = set(keys_a)
    labels_b = _labels(node_b)
    children += [
        (None, child, path / label) for child, key, label in zip(node_b.children, keys_b, labels_b) if key not in common
    ]
    if set(keys_a) == set(keys_b):
        return None, children
    return ("branches" if test_a.kind == test_b.kind else "test"), children


def value_sets(test) -> list[frozenset]:
    """The values each branch of a nominal or subset test takes, as sets (subset: ``V`` and the rest
    of the attribute's values)."""
    if isinstance(test, SubsetTest):
        inside = frozenset(map(name_key, test.values))
        return [inside, frozenset(map(name_key, test.attribute.values)) - inside]
    return [frozenset((name_key(value),)) for value in test.attribute.values]
