"""The Dask engine's last levels, grown on the workers from the records they are sent (PLANET's finish).

Once every node that may split is small, each worker grows whole subtrees from the records it is
sent. Level by level, every level costs the client a few round trips and the workers a pass over
their records per group of attributes, even when the level is tens of thousands of nodes of a few
rows each. Once the largest node that may split holds at most ``1 / (FINISH_SHARE x workers)`` of
the frontier's weight (``hands_over``), the frontier is cut into ``FINISH_SHARE x workers`` runs of
consecutive nodes of about equal weight (``node_groups``). Every partition sends each run its
records there (``group_pieces``: node, weight, class, nominal codes, bin codes); each run's records,
gathered on one worker in partition order, grow level by level with the level-wise engine's
kernels from that frontier (``finish_group``: ``levelwise/engine.grow_levels``, with the cluster's
bins, the level's depth and the whole table's level rules), and the runs' levels, laid side by
side (``merged``), are the levels the cluster would have grown: every node's decision reads only
its own records (their sums exact on the grid of ``constants.on_grid`` in any order), the global
bins and the depth.

When J48's pruning follows (``engine._Growth.prune``), a run's levels do not travel: its worker
collapses each subtree and prunes it on the subtree's own records with the compiled pruner
(``pruned_grafts``), and only what the client needs comes back (``grow/flat.Graft``: the grown
leaves' training errors, which J48's top-down collapse weighs above, the leaf count, and the pruned
subtree). The client then prunes the whole tree on the cluster's counts (``prune.py``) and finds
these subtrees unchanged: J48 prunes a subtree first on the cases it grew from, and pruning a pruned
tree on the same cases changes nothing. So the client never holds the grown tree's last levels.

Contract: ``finish(growth, level, totals, depth)`` returns the levels from ``depth`` down, as
``engine._Growth`` would have appended them, and no grafts; with pruning to follow, the frontier's
level alone and a Graft for each of its nodes that split.
"""

from __future__ import annotations

import operator

import numpy as np

from dtcli.induction.distributed.cluster import shipped
from dtcli.induction.grow.flat import FlatTree, Graft, collapse, n_leaves, subtree, subtree_errors
from dtcli.induction.levelwise.data import LevelTree, assemble
from dtcli.model.table import NOMINAL, Attribute, Schema, Table
from dtcli.model.tree import Node

FINISH_SHARE = 4  # runs a worker grows; a node may be at most the weight of one run


def hands_over(totals: np.ndarray, active: np.ndarray, n_workers: int) -> bool:
    """Whether the frontier is finished on the workers: no node that may split weighs more than
    one run's share of the frontier's weight (so the runs can be about equal; 0 runs: never)."""
    share, weight = FINISH_SHARE, float(totals[active].sum())
    return share > 0 and weight > 0 and float(totals[active].max()) * share * n_workers <= weight


def node_groups(totals: np.ndarray, n_runs: int) -> np.ndarray:
    """Bounds of ``n_runs`` (at most) runs of consecutive nodes of about equal weight (``totals``)."""
    weight = np.cumsum(totals)
    inner = np.searchsorted(weight, weight[-1] * np.arange(1, n_runs) / n_runs, side="right")
    return np.unique(np.concatenate([[0], inner, [len(totals)]])).astype(np.int64)


def group_pieces(enc, recs, codes, bounds: np.ndarray, narrow) -> list[tuple]:
    """This partition's records in each run of nodes ``bounds``: (node, weight, class, nominal codes in
    the ``narrow`` type, numeric bin codes), in row order within a node (runs on a worker). No numeric
    value travels: a threshold is a bin's largest value, so a value and its bin's largest value fall on
    the same side of every test, and the run uses the latter (``finish_group``)."""
    order = np.argsort(recs.node, kind="stable")
    node = recs.node[order]
    cuts = np.searchsorted(node, bounds)
    pieces = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        at = order[lo:hi]
        rows = recs.row[at]
        pieces.append((node[lo:hi], recs.w[at], enc.y[rows], enc.nominal[:, rows].astype(narrow), codes[:, rows]))
    return pieces


def finish_group(pieces: list, lo: int, labels: np.ndarray, depth: int, shape, layout, params, prune=None):
    """The levels grown from the run of nodes starting at ``lo`` (``labels``: theirs) on its records,
    ``pieces`` from every partition in partition order (runs on a worker). With ``prune`` (J48's
    pruning settings), instead each grown node's ``Graft`` by its index in the run: its subtree
    collapsed and pruned here, on the node's records (``pruned_grafts``)."""
    from dtcli.induction.levelwise.engine import Start, grow_levels

    node, w, y, nominal, codes = (np.concatenate(part, axis=-1) for part in zip(*pieces))
    order = np.argsort(node, kind="stable")  # grouped by node, partition and row order within one
    attributes = shape.attributes
    columns, binned = [], {}
    for i, attribute in enumerate(attributes):
        slot = layout.slot[i]
        if attribute.is_nominal:
            columns.append(nominal[slot][order].astype(np.int32))
        else:
            code, tops = codes[slot][order].astype(np.int32), np.asarray(layout.bins[i][2], dtype=np.float64)
            columns.append(np.where(code >= 0, tops[np.maximum(code, 0)] if len(tops) else np.nan, np.nan))
            binned[i] = (code, tops)
    schema = Schema(tuple(attributes), Attribute("class", NOMINAL, tuple(shape.classes)))
    table = Table(schema, columns, y[order].astype(np.int32), w[order])
    start = Start(node[order] - lo, w[order], labels, depth, binned, shape)
    levels = grow_levels(table, params, start)
    if prune is None:
        return levels
    return pruned_grafts(assemble(levels, attributes), len(labels), table, start.node, params, prune)


def pruned_grafts(forest: FlatTree, m: int, table: Table, node: np.ndarray, params, prune) -> dict:
    """Each split root of ``forest`` (slots 0 to ``m - 1``: the run's nodes; ``node``: each row's) as a Graft: its
    subtree's training errors, collapsed as J48 collapses (top down from it), then pruned pessimistically
    on its own rows. J48 prunes a subtree first on the cases it grew from (its children before its
    root), and pruning a pruned tree on the same cases changes nothing, so the pruning of the whole
    tree on the client (``prune.py``) finds these subtrees as they are here."""
    from dtcli.induction.params import fraction_grid
    from dtcli.induction.prune.pessimistic.flat import flat_prune
    from dtcli.induction.prune.pessimistic.reference import TableCases, prune_cases

    grid = fraction_grid(params.algorithm, params.max_bins)
    roots = np.flatnonzero(forest.attr[:m] >= 0)
    errors = subtree_errors(forest)
    collapse(forest, roots)
    bounds = np.searchsorted(node, np.arange(m + 1))  # (rows grouped by node)
    grafts = {}
    for v in roots.tolist():
        grown = subtree(forest, v)
        root = Node(grown.counts[0], int(grown.label[0]))
        if grown.attr[0] >= 0:  # (a subtree collapsed to its root stays that leaf)
            cases = table.take(np.arange(bounds[v], bounds[v + 1]))
            rules = (prune.cf, prune.raising, prune.error_bound)
            done = flat_prune(grown, cases, *rules, False, grid)  # the compiled pruner, else the reference
            if done is None:
                holder = TableCases(cases, grid)
                done = prune_cases(grown.to_nodes(), holder.root, holder, *rules)
            root = done[0]
        grafts[v] = Graft(float(errors[v]), n_leaves(grown), root)
    return grafts


def merged(runs: list[list[LevelTree]]) -> list[LevelTree]:
    """The runs' levels side by side, level by level: each run's children follow the previous
    runs' (a run's child starts shifted by the children before it); a run that stops early adds
    no nodes below."""
    levels = []
    for d in range(max(len(run) for run in runs)):
        present = [run[d] for run in runs if d < len(run)]
        shift = np.cumsum([0] + [int(level.nb.sum()) for level in present[:-1]])
        counts = np.concatenate([level.counts for level in present])
        level = LevelTree(counts, np.concatenate([level.labels for level in present]), len(counts))
        for name in ("attr", "thr", "nb", "score", "gain"):
            setattr(level, name, np.concatenate([getattr(part, name) for part in present]))
        level.cstart = np.concatenate([part.cstart + s for part, s in zip(present, shift)])
        levels.append(level)
    return levels


def finish(growth, level: LevelTree, totals: np.ndarray, depth: int) -> tuple[list[LevelTree], dict]:
    """The levels from ``depth`` (the frontier: ``level``, ``totals`` by node) down, grown by runs on
    the workers (see the module docstring), and no grafts; with ``growth.prune``, only the frontier's
    level and its split nodes' Grafts by index (``pruned_grafts``). ``growth``: the engine's ``_Growth``."""
    client, labels = growth.client, level.labels
    bounds = node_groups(totals, FINISH_SHARE * growth.n_workers)
    widest = max((len(a.values) for a in growth.shape.attributes if a.is_nominal), default=0)
    narrow = np.int8 if widest <= 127 else np.int16 if widest <= 32767 else np.int32
    pieces = client.map(
        group_pieces, growth.parts, growth.recs, growth.codes, bounds=shipped(client, bounds), narrow=narrow
    )
    runs = [
        client.submit(
            finish_group,
            [client.submit(operator.getitem, piece, r) for piece in pieces],
            int(lo),
            labels[lo:hi],
            depth,
            growth.shape,
            growth.layout,
            growth.params,
            growth.prune,
        )
        for r, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))
    ]
    del pieces
    growth.recs = growth.codes = None  # the partitions' records and codes go once the runs have theirs
    if growth.prune is None:
        return merged(client.gather(runs)), {}
    grafts = {}
    for lo, run in zip(bounds[:-1].tolist(), client.gather(runs)):
        grafts.update({lo + v: graft for v, graft in run.items()})
    return [level], grafts
