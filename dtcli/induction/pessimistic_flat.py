"""Error-based pruning of large trees with the compiled kernels (``engine_prune``).

Contract: ``flat_prune(root, table, cf, raising, bound)`` prunes the tree
at ``root`` (grown on ``table``) as ``pessimistic`` does and returns the
pruned root and the Steps, identical to the reference's, or None when the
kernels cannot run here or the tree has tests they do not know (CART's
subsets). The tree is laid out as arrays, children of a node in
consecutive slots; the given Nodes are reused (changed) for the result.
"""

from __future__ import annotations

from statistics import NormalDist

import numpy as np

from dtcli.induction.bounds import r8_coefficient
from dtcli.induction.numeric import seqsum
from dtcli.induction.tolerance import gr
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, Node, NumericTest, majority

ACTIONS = ("leaf", "raise", "keep")


def flat_prune(root: Node, table: Table, cf: float, raising: bool, bound: str):
    from dtcli.induction.engine import kernels

    if kernels() is None:
        return None
    from dtcli.induction import engine_prune as k

    nodes, tests, children_at = _flatten(root)
    if nodes is None:
        return None
    n_slots = len(nodes)
    attributes = table.attributes
    attr = np.array([-1 if t is None else table.schema.index(t.attribute.name) for t in tests], dtype=np.int64)
    thr = np.array([t.threshold if isinstance(t, NumericTest) else 0.0 for t in tests])
    nb = np.array([0 if t is None else t.n_branches for t in tests], dtype=np.int64)
    labelled = table.labelled()
    is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
    slot = np.zeros(len(attributes), dtype=np.int64)
    nominal, numeric = [], []
    for i, attribute in enumerate(attributes):
        group = nominal if attribute.is_nominal else numeric
        slot[i] = len(group)
        group.append(table.columns[i][labelled])
    n = int(labelled.sum())
    nominal = np.vstack(nominal).astype(np.int64) if nominal else np.zeros((1, n), dtype=np.int64)
    numeric = np.vstack(numeric).astype(np.float64) if numeric else np.zeros((1, n))
    y = table.y[labelled].astype(np.int64)
    rows = np.arange(n, dtype=np.int64)
    ws = table.weights[labelled].astype(np.float64)
    n_classes = len(table.classes)
    z = NormalDist().inv_cdf(1 - cf)
    coeff = r8_coefficient(cf) if bound == "c45r8" else 0.0
    capacity = 2 * n_slots + 64
    while True:
        t_attr, t_thr, t_nb = attr.copy(), thr.copy(), nb.copy()
        t_cstart, t_src = children_at.copy(), np.arange(n_slots, dtype=np.int64)
        bags3 = np.zeros((n_slots, max(int(nb.max()), 1), n_classes))
        dcounts = np.zeros((n_slots, n_classes))
        dcounts[0] = k.class_counts(rows, ws, y, n_classes)
        steps_i = np.zeros((capacity, 5), dtype=np.int64)
        steps_f = np.zeros((capacity, 4))
        entries_i = np.zeros((capacity, 3), dtype=np.int64)
        counters = np.zeros(2, dtype=np.int64)
        overflow = k.prune(0, rows, ws, -1, t_attr, t_thr, t_nb, t_cstart, t_src, is_nominal, slot, nominal, numeric,
                           y, n_classes, bags3, dcounts, cf, z, bound == "c45r8", coeff, raising, steps_i, steps_f,
                           entries_i, counters)
        if not overflow:
            break
        capacity *= 4
    root = _rebuild(0, nodes, tests, t_attr, t_nb, t_cstart, t_src, bags3)
    root.counts = dcounts[0].copy()
    root.label = majority(root.counts)
    steps = _steps(steps_i[:counters[0]], steps_f[:counters[0]], entries_i[:counters[1]], tests, raising)
    return root, steps


def _flatten(root: Node):
    """Nodes in breadth-first order (children of a node in consecutive slots), their tests and
    where each node's children start; (None, ...) if a test is neither nominal nor numeric."""
    nodes, tests, starts = [root], [], []
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if node.test is not None and not isinstance(node.test, (NominalTest, NumericTest)):
            return None, None, None
        tests.append(node.test)
        starts.append(len(nodes))
        nodes.extend(node.children)
        i += 1
    return nodes, tests, np.array(starts, dtype=np.int64)


def _rebuild(slot, nodes, tests, t_attr, t_nb, t_cstart, t_src, bags3) -> Node:
    """The pruned tree's Nodes, as ``pessimistic._to_nodes`` makes them."""
    node = nodes[slot]
    if t_attr[slot] < 0:
        node.test, node.children = None, []
        return node
    node.test = tests[t_src[slot]]
    bags = bags3[slot, :t_nb[slot]]
    node.children = []
    for b in range(t_nb[slot]):
        built = _rebuild(int(t_cstart[slot] + b), nodes, tests, t_attr, t_nb, t_cstart, t_src, bags3)
        row = bags[b].copy()
        built.counts = row
        built.label = majority(row) if gr(seqsum(row), 0.0) else majority(bags.sum(axis=0))
        node.children.append(built)
    return node


def _steps(steps_i, steps_f, entries_i, tests, raising: bool) -> list:
    from dtcli.induction.pessimistic import Step

    paths: list[str] = []
    for parent, src, branch in entries_i:
        prefix = "" if parent < 0 else paths[parent]
        paths.append(f"{prefix}/{tests[src].branch_labels()[branch]}")
    out = []
    for (_, entry, action, largest, src), (cases, leaf, tree, branch) in zip(steps_i, steps_f):
        name = ACTIONS[action]
        if name == "raise":
            name = f"raise {tests[src].branch_labels()[largest]}"
        path = paths[entry] if entry >= 0 else ""
        out.append(Step(path or "/", float(cases), float(leaf), float(tree), float(branch) if raising else None, name))
    return out
