"""Error-based pruning of large trees with the compiled kernels (``pessimistic/kernels/prune.py``).

Contract: ``flat_prune(flat, table, cf, raising, bound)`` prunes a
FlatTree (grown on ``table``) as ``pessimistic`` does and returns the
pruned root Node and the Steps, identical to the reference's, or None when
the kernels cannot run here. Nodes the FlatTree was laid out from are
reused (changed) for the result; otherwise only the pruned tree's Nodes
are made.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.bounds import normal_deviate, r8_coefficient
from dtcli.induction.criteria.constants import GRID_SCALE, gr
from dtcli.induction.grow.flat import FlatTree
from dtcli.induction.prune.pessimistic.kernels.state import Cases, Estimate, Flat, Record
from dtcli.induction.prune.pessimistic.steps import Step
from dtcli.induction.search.numeric import seqsum
from dtcli.model.table import Table
from dtcli.model.tree import Node, majority

ACTIONS = ("leaf", "raise", "keep")


def flat_prune(flat: FlatTree, table: Table, cf: float, raising: bool, bound: str, record: bool = True, grid=False):
    from dtcli.induction.levelwise.data import Columns
    from dtcli.induction.levelwise.engine import kernels

    if kernels() is None:
        return None
    from dtcli.induction.prune.pessimistic.kernels import prune as k

    n_slots = flat.n_slots
    labelled = table.labelled()
    columns = Columns.of(table)
    n = int(labelled.sum())
    every = n == table.n_rows  # (then the table's own class codes, not a copy)
    y = np.asarray(table.y if every else table.y[labelled], dtype=np.int32)  # row numbers int32 too where they fit
    index = np.int32 if n < 2**31 else np.int64
    n_classes = len(table.classes)
    z = normal_deviate(cf)
    coeff = r8_coefficient(cf) if bound == "c45r8" else 0.0
    capacity = 2 * int((flat.attr >= 0).sum()) + 64  # steps: one a visit of an internal node
    entries = 2 * n_slots + 64  # path entries: one a visit of a child
    scale = GRID_SCALE if grid else 0.0  # (--max-bins: fractional weights on the grid, ``params.fraction_grid``)
    cases = Cases(columns.is_nominal, columns.slot, columns.nominal, columns.numeric, y, n_classes, scale)
    estimate = Estimate(cf, z, bound == "c45r8", coeff, raising)
    while True:
        t = Flat(
            flat.attr.copy(), flat.thr.copy(), flat.nb.copy(), flat.cstart.copy(), np.arange(n_slots, dtype=np.int64)
        )
        rec = Record(
            np.zeros((n_slots, n_classes)),
            np.zeros((n_slots, n_classes)),
            np.zeros((capacity, 5), dtype=np.int32),  # slots, entries, branches: below 2**31
            np.zeros((capacity, 4)),
            np.zeros((entries, 3), dtype=np.int32),
            np.zeros(2, dtype=np.int64),
            np.zeros(n_slots),
        )
        rows = np.arange(n, dtype=index)  # made for each try: the pruning reorders them
        ws = np.asarray(table.weights[labelled], dtype=np.float64)
        rec.dcounts[0] = k.class_counts(rows, ws, y, n_classes)
        if not k.prune(0, rows, ws, -1, t, cases, estimate, rec):
            break
        del rows, ws
        capacity, entries = capacity * 4, entries * 4
    root = _rebuild(0, flat, t, rec.branch_bags)
    root.counts = rec.dcounts[0].copy()
    root.label = majority(root.counts)
    if not record:  # the caller does not want the decisions (no --trace): skip naming their paths
        return root, []
    n_steps, n_entries = rec.counters
    steps = _steps(rec.steps_i[:n_steps], rec.steps_f[:n_steps], rec.entries_i[:n_entries], flat, raising)
    return root, steps


def _rebuild(top, flat: FlatTree, t: Flat, branch_bags) -> Node:
    """The pruned tree's Nodes, as ``pessimistic._to_nodes`` makes them (top down, with a stack)."""
    root = _node(top, flat)
    stack = [(top, root)]
    while stack:
        slot, node = stack.pop()
        if t.attr[slot] < 0:
            node.test, node.children = None, []
            continue
        node.test = flat.test(int(t.src[slot]))
        if int(t.src[slot]) != slot:  # a raised test: chosen, and scored, on its own node's cases
            node.score = None
        bags = branch_bags[t.cstart[slot] : t.cstart[slot] + t.nb[slot]]
        node.children = []
        for b in range(t.nb[slot]):
            child = int(t.cstart[slot] + b)
            built = _node(child, flat)
            row = bags[b].copy()
            built.counts = row
            built.label = majority(row) if gr(seqsum(row), 0.0) else majority(bags.sum(axis=0))
            node.children.append(built)
            stack.append((child, built))
    return root


def _node(slot: int, flat: FlatTree) -> Node:
    node = flat.nodes[slot] if flat.nodes is not None else Node(flat.counts[slot], int(flat.label[slot]))
    if flat.nodes is None and not np.isnan(flat.score[slot]):
        node.score = float(flat.score[slot])
    return node


def _steps(steps_i, steps_f, entries_i, flat: FlatTree, raising: bool) -> list:
    labels: dict[int, list[str]] = {}

    def label(src: int, branch: int) -> str:
        if src not in labels:
            labels[src] = flat.test(src).branch_labels()
        return labels[src][branch]

    paths: dict[int, tuple] = {}  # entry -> its path as a chain (see ``steps``)

    def path_of(entry: int):
        chain = []
        while entry >= 0 and entry not in paths:
            chain.append(entry)
            entry = int(entries_i[entry, 0])
        prefix = paths.get(entry)
        for e in reversed(chain):
            prefix = paths[e] = (prefix, label(int(entries_i[e, 1]), int(entries_i[e, 2])))
        return prefix

    out = []
    for (_, entry, action, largest, src), (cases, leaf, tree, branch) in zip(steps_i, steps_f):
        name = ACTIONS[action]
        if name == "raise":
            name = f"raise {label(int(src), int(largest))}"
        out.append(
            Step(path_of(int(entry)), float(cases), float(leaf), float(tree), float(branch) if raising else None, name)
        )
    return out
