"""The Dask engine's last levels, grown on the workers: once every node that may split is small,
each worker grows whole subtrees from the records it is sent (PLANET's in-memory finish).

Level by level, every level costs the client a few round trips and the workers a pass over
their records per group of attributes, even when the level is tens of thousands of nodes of a few
rows each. Once the largest node that may split holds at most ``1 / (FINISH_SHARE x workers)`` of
the frontier's weight (``hands_over``), the frontier is cut into ``FINISH_SHARE x workers`` runs of
consecutive nodes of about equal weight (``node_groups``). Every partition sends each run its
records there (``group_pieces``: row, weight, class, values, bin codes); each run's records,
gathered on one worker in partition order, grow level by level with the level-wise engine's
kernels from that frontier (``finish_group``: ``levelwise/engine.grow_levels``, with the cluster's
bins, the level's depth and the whole table's level rules), and the runs' levels, laid side by
side (``merged``), are the levels the cluster would have grown: every node's decision reads only
its own records (their sums exact on the grid of ``constants.on_grid`` in any order), the global
bins and the depth.

Contract: ``finish(growth, counts, labels, totals, active)`` returns the levels from the current one
down, as ``engine._Growth`` would have appended them.
"""

from __future__ import annotations

import operator

import numpy as np

from dtcli.induction.levelwise.data import LevelTree
from dtcli.model.table import NOMINAL, Attribute, Schema, Table

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


def group_pieces(enc, recs, codes, bounds: np.ndarray) -> list[tuple]:
    """This partition's records in each run of nodes ``bounds``: (node, weight, class, nominal codes,
    numeric values, numeric bin codes), in row order within a node (runs on a worker)."""
    order = np.argsort(recs.node, kind="stable")
    node = recs.node[order]
    cuts = np.searchsorted(node, bounds)
    pieces = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        at = order[lo:hi]
        rows = recs.row[at]
        values = (enc.nominal[:, rows], enc.numeric[:, rows], codes[:, rows])
        pieces.append((node[lo:hi], recs.w[at], enc.y[rows], *values))
    return pieces


def finish_group(pieces: list, lo: int, labels: np.ndarray, depth: int, shape, layout, params) -> list[LevelTree]:
    """The levels grown from the run of nodes starting at ``lo`` (``labels``: theirs) on its records,
    ``pieces`` from every partition in partition order (runs on a worker)."""
    from dtcli.induction.levelwise.engine import Start, grow_levels

    node, w, y, nominal, numeric, codes = (np.concatenate(part, axis=-1) for part in zip(*pieces))
    order = np.argsort(node, kind="stable")  # grouped by node, partition and row order within one
    attributes = shape.attributes
    columns, binned = [], {}
    for i, attribute in enumerate(attributes):
        slot = layout.slot[i]
        if attribute.is_nominal:
            columns.append(nominal[slot][order])
        else:
            columns.append(numeric[slot][order])
            binned[i] = (codes[slot][order].astype(np.int32), layout.bins[i][2])
    schema = Schema(tuple(attributes), Attribute("class", NOMINAL, tuple(shape.classes)))
    table = Table(schema, columns, y[order].astype(np.int32))
    start = Start(node[order] - lo, w[order], labels, depth, binned, shape)
    return grow_levels(table, params, start)


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


def finish(growth, labels: np.ndarray, totals: np.ndarray, depth: int) -> list[LevelTree]:
    """The levels from ``depth`` (the frontier: ``labels``, ``totals`` by node) down, grown by runs
    on the workers (see the module docstring); ``growth``: the engine's ``_Growth``."""
    client = growth.client
    bounds = node_groups(totals, FINISH_SHARE * growth.n_workers)
    bounds_future = client.scatter(bounds, broadcast=True, hash=False)
    pieces = client.map(group_pieces, growth.parts, growth.recs, growth.codes, bounds=bounds_future)
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
        )
        for r, (lo, hi) in enumerate(zip(bounds[:-1], bounds[1:]))
    ]
    del pieces
    return merged(client.gather(runs))
