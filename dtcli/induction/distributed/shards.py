"""A level's split search on the workers: the partitions' sparse cells summed and scored by shards of nodes.

Each partition's records become sparse cells, cut into shards of nodes; each shard is summed and
scored where it lies; only the candidates travel to the client.

Contract (functions run on workers, numpy and the scoring kernels):

- ``level_cells(enc, recs, pos, bounds, layout)``: a partition's records (``histograms.Records``)
  at the level's active nodes (``pos``: a node's place among them, -1 for the others) as one
  tuple of ``Cells`` an attribute (schema order) per shard (``bounds``: the shards' first active
  nodes, and the end);
- ``score_shard(pieces, totals, layout, min_leaf)``: a shard's pieces from every partition summed
  (``cells.merged``: exact, in any order) and scored with the level-wise engine's kernels: per
  attribute, (found, gain, ratio) for a nominal one and (found, gain, ratio, lower, upper) for a
  numeric one, by the shard's nodes.

Both take ``attributes`` (schema positions): a level's attributes may be counted and scored a group at
a time, so that only one group's cells exist at once.

``Layout``: per attribute (schema order) whether nominal, its slot in the encoded blocks, its width
(values or bins, and one for the missing value) and, for a numeric one, its bins (edges,
renumbering, tops).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dtcli.induction.distributed.cells import Cells, NodeOrder, cells_of, dense, merged, pieces, rows_of
from dtcli.induction.distributed.quantiles import bin_of

CHUNK = 1 << 15  # nominal attributes are scored this many nodes at a time (dense: nodes x values x classes)


class Layout(NamedTuple):
    is_nominal: tuple
    slot: tuple
    width: tuple
    bins: tuple  # per attribute: (edges, renumbering, tops), or None for a nominal one
    n_classes: int


def layout_of(attributes, bins: dict, n_classes: int) -> Layout:
    """The Layout of a table's ``attributes`` (schema order) with its numeric slots' ``bins``."""
    is_nominal = np.array([a.is_nominal for a in attributes], dtype=bool)
    slot = np.zeros(len(attributes), dtype=np.int64)
    slot[is_nominal] = np.arange(int(is_nominal.sum()))
    slot[~is_nominal] = np.arange(int((~is_nominal).sum()))
    return Layout(
        tuple(bool(v) for v in is_nominal),
        tuple(int(v) for v in slot),
        tuple(len(a.values) + 1 if a.is_nominal else len(bins[int(s)][2]) + 1 for a, s in zip(attributes, slot)),
        tuple(None if a.is_nominal else bins[int(s)] for a, s in zip(attributes, slot)),
        n_classes,
    )


def partition_codes(enc, layout: Layout) -> np.ndarray:
    """This partition's numeric values as their bins' codes (-1: missing), a row per numeric slot,
    made once for all the levels (2 bytes a value while the bins fit)."""
    numeric = [i for i, nominal in enumerate(layout.is_nominal) if not nominal]
    wide = max((layout.width[i] for i in numeric), default=0) >= np.iinfo(np.int16).max
    codes = np.empty((len(numeric), len(enc.y)), dtype=np.int32 if wide else np.int16)
    for i in numeric:
        edges, renumber, _ = layout.bins[i]
        codes[layout.slot[i]] = bin_of(enc.numeric[layout.slot[i]], edges, renumber)
    return codes


def level_cells(
    enc, recs, pos: np.ndarray, bounds: np.ndarray, layout: Layout, attributes=None, codes=None
) -> list[tuple]:
    """This partition's cells at the active nodes, by shard then attribute (of ``attributes``, schema
    positions; default all; see the module docstring); ``codes``: ``partition_codes`` (else binned here)."""
    keep = pos[recs.node] >= 0
    node, rows, w = pos[recs.node[keep]], recs.row[keep], recs.w[keep]
    y = enc.y[rows]
    order = NodeOrder(node)
    by_attribute = []
    for i in range(len(layout.is_nominal)) if attributes is None else attributes:
        if layout.is_nominal[i]:
            values = enc.nominal[layout.slot[i]][rows]
        elif codes is not None:
            values = codes[layout.slot[i]][rows]
        else:
            edges, renumber, _ = layout.bins[i]
            values = bin_of(enc.numeric[layout.slot[i]][rows], edges, renumber)
        cells = cells_of(node, values, w, y, layout.width[i], layout.n_classes, order)
        by_attribute.append(pieces(cells, bounds, layout.width[i]))
    return [tuple(cut[r] for cut in by_attribute) for r in range(len(bounds) - 1)]


def coded_cells(enc, recs, codes, pos: np.ndarray, bounds: np.ndarray, layout: Layout, attributes=None) -> list:
    """``level_cells`` with the partition's ``codes`` (``partition_codes``, or None) as a third argument."""
    return level_cells(enc, recs, pos, bounds, layout, attributes, codes)


def score_shard(shard: list[tuple], totals: np.ndarray, layout: Layout, min_leaf: float, attributes=None) -> list:
    """The shard's candidates per attribute of ``attributes`` (the pieces' order; default all)."""
    from dtcli.induction.distributed.kernels.scores import nominal_scores
    from dtcli.induction.distributed.kernels.sparse import sparse_binned_scores

    m = len(totals)
    candidates = []
    for at, i in enumerate(range(len(layout.is_nominal)) if attributes is None else attributes):
        cells = merged([piece[at] for piece in shard], layout.n_classes)
        width = layout.width[i]
        if layout.is_nominal[i]:
            out = [np.zeros(m, dtype=np.bool_), np.zeros(m), np.zeros(m)]
            for lo in range(0, m, CHUNK):
                hi = min(m, lo + CHUNK)
                at_cells = np.searchsorted(cells.keys, np.array([lo, hi]) * width)
                part = Cells(
                    cells.keys[at_cells[0] : at_cells[1]] - lo * width,
                    cells.weights[at_cells[0] : at_cells[1]],
                    cells.records[at_cells[0] : at_cells[1]],
                )
                hist = dense(part, hi - lo, width)
                scored = nominal_scores(hist, np.ones(hi - lo, dtype=np.bool_), totals[lo:hi], min_leaf)
                for whole, piece in zip(out, scored):
                    whole[lo:hi] = piece
            candidates.append(tuple(out))
        else:
            starts, codes = rows_of(cells, m, width)
            tops = layout.bins[i][2]
            found, lower, upper, gains, ratios = sparse_binned_scores(
                starts, codes, cells.weights, cells.records, width - 1, tops, totals, min_leaf, True
            )
            candidates.append((found, gains, ratios, lower, upper))
        del cells
    return candidates
