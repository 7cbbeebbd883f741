"""How the level-wise engine holds the data: column blocks, sorted lists, threshold placement.

``Columns``: the labelled rows' nominal codes and numeric values as two 2-D
blocks (what the compiled kernels index), made once per table.
``sorted_list``: one numeric attribute's records sorted by value, the list
the engine carries down the tree. ``Placer``: J48's threshold placement
(the largest training value not above the cut) answered from the sorted
distinct values instead of a pass over the column. ``LevelTree``: one
level's nodes as arrays; ``assemble`` joins the levels into a FlatTree.
``Candidates``: one level's records and frontier, and each attribute's
candidate split at every node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcli.induction.grow.flat import FlatTree
from dtcli.induction.levelwise.kernels.state import Blocks, Frontier, Records, SortedList
from dtcli.induction.search.c45 import Thresholds
from dtcli.model.table import Table


class Columns:
    """The labelled rows' attribute values, grouped by kind for the kernels.

    Nominal codes are held in bytes when every nominal attribute has at most 127 values
    (``narrow``), else in 4-byte integers (the kernels compile once for each). When every row is
    labelled, the table's own columns become views into these blocks (same values), so the data
    is held once, not twice: numeric columns for good, nominal ones of another type only when
    ``lend`` (while the tree grows: ``give_back`` makes them the table's codes again; on a million
    rows of 10 nominal attributes, 30 MB less at the engine's peak).
    """

    def __init__(self, table: Table, rows: np.ndarray, lend: bool = False):
        attributes = table.attributes
        self.is_nominal = np.array([a.is_nominal for a in attributes], dtype=np.bool_)
        self.slot = np.zeros(len(attributes), dtype=np.int64)
        nominal, numeric = [], []
        for i, attribute in enumerate(attributes):
            group = nominal if attribute.is_nominal else numeric
            self.slot[i] = len(group)
            group.append(i)
        n = len(rows)
        everything = n == table.n_rows
        self.narrow = all(len(attributes[i].values) <= 127 for i in nominal)
        self.nominal = np.zeros((max(len(nominal), 1), n), dtype=np.int8 if self.narrow else np.int32)
        self.numeric = np.zeros((max(len(numeric), 1), n))
        self.lent: dict[int, np.dtype] = {}  # nominal column -> its dtype in the table, while it is a view here
        for block, members in ((self.nominal, nominal), (self.numeric, numeric)):
            for j, i in enumerate(members):
                column = table.columns[i]
                block[j] = column if everything else column[rows]
                if everything and (column.dtype == block.dtype or (lend and block is self.nominal)):
                    if column.dtype != block.dtype:
                        self.lent[i] = column.dtype
                    table.columns[i] = block[j]
        self.n_values = [len(a.values) for a in attributes]
        self.blocks = Blocks(self.is_nominal, self.slot, self.nominal, self.numeric)  # as the kernels take them

    def give_back(self, table: Table) -> None:
        """The nominal columns lent to the block as the table held them (after growth: the rest of
        dtree reads 4-byte codes)."""
        for i, dtype in self.lent.items():
            table.columns[i] = self.nominal[self.slot[i]].astype(dtype)
        self.lent = {}

    @classmethod
    def of(cls, table: Table, lend: bool = False) -> Columns:
        """The blocks of ``table``'s labelled rows, made once per table (growth and pruning share them;
        ``lend``: see the class)."""
        made = getattr(table, "_engine_columns", None)
        if made is None:
            made = cls(table, np.flatnonzero(table.labelled()), lend)
            table._engine_columns = made
        return made


def rank_type(n_distinct: int):
    """The smallest type of a sorted list's value ranks: 2 bytes an entry up to 65,536 distinct values
    (the kernels compile once per type, so a table whose columns need both compiles them twice)."""
    return np.uint16 if n_distinct <= 1 << 16 else np.int32


def sorted_list(columns: Columns, table: Table, labelled: np.ndarray, i: int):
    """Attribute ``i``'s sorted list (values as ranks into the column's distinct values, where
    each node's block starts, each record's id; ties in row order) and those
    distinct values
    (the compiled sort releases the GIL, so attributes sort in parallel)."""
    from dtcli.induction.kernels.sort import stable_order

    values = columns.numeric[columns.slot[i]]
    order = stable_order(values)
    ordered = values[order]
    if labelled.all():
        fresh = np.empty(len(ordered), dtype=bool)
        fresh[:1] = True
        np.not_equal(ordered[1:], ordered[:-1], out=fresh[1:])
        distinct = ordered[fresh]
        ranks = (np.cumsum(fresh) - 1).astype(rank_type(len(distinct)))
    else:
        column = table.columns[i]
        distinct = np.unique(column[~np.isnan(column)])
        ranks = np.searchsorted(distinct, ordered).astype(rank_type(len(distinct)))
    starts = np.array([0, len(order)], dtype=np.int32)  # one node, the root, holds the whole list
    return SortedList(ranks, starts, order.astype(np.int32)), distinct


class Placer:
    """``Thresholds.place`` without a pass over the column for each split: the sorted distinct
    values answer it unless several values lie within 1e-4 below the threshold (then file order
    decides, as in J48, and the exact scan runs)."""

    def __init__(self, table: Table, mode: str, snap: bool = False):
        self.exact = Thresholds(table, mode)
        self.mode = mode
        self.table = table
        self.snap = snap
        self.distinct: dict[int, np.ndarray] = {}

    def place(self, i: int, midpoint: float, lower: float | None = None) -> float:
        """The threshold of a cut between ``lower`` and the value above it (``midpoint`` between them).
        ``snap`` (rows routed by their raw values while the cut is between binned values, ``--max-bins``):
        a midpoint is moved down to the largest binned value not above it, as ``bins.snap`` moves the
        reference's, so that the rows go where their binned values went."""
        if self.mode == "midpoint":
            return self._snapped(i, midpoint) if self.snap else midpoint
        u = self._values(i)
        at = int(np.searchsorted(u, midpoint + 1e-6, side="right"))
        while at > 0 and not float(u[at - 1]) - midpoint < 1e-6:  # (Python floats: no overflow warning)
            at -= 1
        while at < len(u) and float(u[at]) - midpoint < 1e-6:
            at += 1
        if at == 0:
            return midpoint
        top = float(u[at - 1])
        if at >= 2 and u[at - 2] >= top - 1e-4:
            return self.exact.place(i, midpoint, lower)
        return top if lower is None else max(top, lower)

    def _snapped(self, i: int, midpoint: float) -> float:
        u = self._values(i)
        at = int(np.searchsorted(u, midpoint, side="right")) - 1
        return float(u[at]) if at >= 0 else midpoint

    def _values(self, i: int) -> np.ndarray:
        if i not in self.distinct:
            column = self.table.columns[i]
            self.distinct[i] = np.unique(column[~np.isnan(column)])
        return self.distinct[i]


class LevelTree:
    """One level's nodes as arrays (slots numbered within the level)."""

    def __init__(self, counts: np.ndarray, labels: np.ndarray, n_nodes: int):
        self.counts, self.labels = counts, labels
        self.attr = np.full(n_nodes, -1, dtype=np.int64)
        self.thr = np.zeros(n_nodes)
        self.nb = np.zeros(n_nodes, dtype=np.int64)
        self.cstart = np.zeros(n_nodes, dtype=np.int64)
        self.score = np.full(n_nodes, np.nan)
        self.gain = np.zeros(n_nodes)


def assemble(levels: list[LevelTree], attributes) -> FlatTree:
    """The levels as one FlatTree: slots numbered level after level."""
    offsets = np.cumsum([0] + [len(level.labels) for level in levels])
    return FlatTree(
        attributes=attributes,
        attr=np.concatenate([level.attr for level in levels]),
        thr=np.concatenate([level.thr for level in levels]),
        nb=np.concatenate([level.nb for level in levels]),
        cstart=np.concatenate([level.cstart + offsets[d + 1] for d, level in enumerate(levels)]),
        counts=np.concatenate([level.counts for level in levels]),
        label=np.concatenate([level.labels for level in levels]).astype(np.int64),
        score=np.concatenate([level.score for level in levels]),
    )


@dataclass
class Candidates:
    """What the kernels read at one level (``recs``, ``front``), and where they write each
    attribute's candidates: found, gain and ratio (or score) by (active node, attribute), and
    the cut (lower and upper value) of each numeric attribute. Only the nodes that may split
    (``rows``, often a tenth of a deep level) are kept: row ``r`` is node ``rows[r]`` (the
    kernels leave the others' candidates empty, so ``by_node`` and ``node_view`` give back
    the level-wide arrays exactly)."""

    recs: Records
    front: Frontier
    n_attributes: int
    rows: np.ndarray = field(init=False)
    found: np.ndarray = field(init=False)
    gains: np.ndarray = field(init=False)
    ratios: np.ndarray = field(init=False)
    cuts: dict = field(default_factory=dict)

    def __post_init__(self):
        self.rows = np.flatnonzero(self.front.active)
        shape = (len(self.rows), self.n_attributes)
        self.found = np.zeros(shape, dtype=np.bool_)
        self.gains = np.zeros(shape)
        self.ratios = np.zeros(shape)

    def nominal(self, k, columns: Columns, i: int, available: np.ndarray, criterion: int) -> None:
        """Nominal attribute ``i``'s split at every active node ``available`` marks (``k``: the
        kernels; ``criterion``: ``C45`` or an ID3 criterion code)."""
        codes, n_values = columns.nominal[columns.slot[i]], columns.n_values[i]
        if criterion == k.C45:
            self.put(i, *k.c45_nominal_splits(codes, n_values, available, self.recs, self.front))
        else:
            self.put(i, *k.nominal_splits(codes, n_values, available, self.recs, self.front, criterion))

    def cut(self, i: int, found, lower, upper, gains, ratios) -> None:
        """Numeric attribute ``i``'s cut at every node, as a kernel returned it."""
        self.put(i, found, gains, ratios)
        self.cuts[i] = (lower[self.rows], upper[self.rows])

    def put(self, i: int, found, gains, ratios) -> None:
        rows = self.rows
        self.found[:, i], self.gains[:, i], self.ratios[:, i] = found[rows], gains[rows], ratios[rows]

    def put_rows(self, i: int, found, gains, ratios, lower=None, upper=None) -> None:
        """Attribute ``i``'s candidates given by active node already (row ``r``: node ``rows[r]``), with
        the cut of a numeric one (the Dask engine's shards score only the active nodes)."""
        self.found[:, i], self.gains[:, i], self.ratios[:, i] = found, gains, ratios
        if lower is not None:
            self.cuts[i] = (lower, upper)

    def by_node(self, values: np.ndarray, fill) -> np.ndarray:
        """Values by active node spread over the level's nodes (``fill`` for the others)."""
        out = np.full((len(self.front.active), *values.shape[1:]), fill, dtype=values.dtype)
        out[self.rows] = values
        return out

    def cut_of(self, i: int, node: int) -> tuple[float, float]:
        """The lower and upper value of numeric attribute ``i``'s cut at (active) ``node``."""
        r = int(np.searchsorted(self.rows, node))
        return float(self.cuts[i][0][r]), float(self.cuts[i][1][r])

    def node_view(self) -> Candidates:
        """These candidates by node, for the scorers that look nodes up (ID3's contested nodes,
        the Gini criterion's counts by node): every node a row."""
        view = Candidates(self.recs, self.front, self.n_attributes)
        view.rows = np.arange(len(self.front.active))
        view.found, view.gains, view.ratios = (self.by_node(m, 0) for m in (self.found, self.gains, self.ratios))
        view.cuts = {i: (self.by_node(lo, 0.0), self.by_node(hi, 0.0)) for i, (lo, hi) in self.cuts.items()}
        return view
