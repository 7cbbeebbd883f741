"""Apply a tree to a table: class probabilities and predicted classes.

All rows descend together, level by level, a few array operations per
attribute tested at the level (not per node). A row whose
tested value is missing (or was never seen in training) goes down every
branch with a weight proportional to the training cases in that branch, and
the class distributions it reaches are summed (C4.5's method, Quinlan 1993).
A tree grown with a fill-in policy (``--missing majority`` and the others in
``missing.FILL``, and CART's ``majority``) sends it down the heaviest branch
instead: the one most training cases took (for a nominal test, the node's
most common training value), as growth sent the filled-in cases.
A leaf contributes its training class distribution; an empty leaf (no
training cases, or less than ``EMPTY`` of weight) contributes its parent's, as
J48 does (ClassifierTree.getProbs: an empty son answers with the split's class
distribution), so the probabilities equal J48's row for row; an empty root
contributes certainty in its label.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.predict.weka_order import EMPTY, in_weka_order
from dtcli.induction.search.missing import FILL
from dtcli.model.format.flat import LEAF, NUMERIC, SUBSET
from dtcli.model.table import Table
from dtcli.model.tree import Node, NumericTest, SubsetTest, Tree, single_precision

CHUNK = 100_000  # rows that descend together when ``predict_proba`` is asked to report progress


def predict_proba(
    tree: Tree, table: Table, done=None, chunk: int = CHUNK, engine: str = "auto", compiling=None
) -> np.ndarray:
    """An (rows, classes) matrix of class probabilities; each row sums to 1.

    For a regression tree: a (rows, 1) matrix of predicted values. The rows
    descend level by level: at each level, one array operation per
    attribute tested there routes every row at once; a row with a missing
    value becomes one record per branch, its weight times the branch's share.
    A large table (``backend.compiled_prediction`` decides, for the request ``engine``) walks the
    tree in the compiled kernel instead, with the same numbers to the last bit.
    With ``done``, the rows descend ``chunk`` at a time and ``done(n)`` is called after each
    chunk of ``n`` rows; a row's numbers depend on that row only, so they are the same.
    ``compiling(seconds)``, when given, is called before the kernel compiles (not in the cache).
    """
    flat, levels, compiled = _prepared(tree, table, engine, compiling)
    if compiled:
        from dtcli.induction.predict.compiled import predict_compiled

        return predict_compiled(flat, table.n_rows, levels, done, chunk)
    if done is None:
        return descend(flat, np.arange(table.n_rows))
    proba = np.empty((table.n_rows, flat.dist.shape[1]), dtype=np.float64)
    for start, stop, part in _numpy_chunks(flat, table.n_rows, chunk):
        proba[start:stop] = part
        done(stop - start)
    return proba


def proba_chunks(tree: Tree, table: Table, chunk: int = CHUNK, engine: str = "auto"):
    """``predict_proba``'s rows ``chunk`` at a time, never all at once: (start, stop, those rows'
    probabilities) in row order, the same numbers (a row's depend on that row only)."""
    flat, levels, compiled = _prepared(tree, table, engine, None)
    if compiled:
        from dtcli.induction.predict.compiled import compiled_chunks

        yield from compiled_chunks(flat, table.n_rows, levels, chunk)
    else:
        yield from _numpy_chunks(flat, table.n_rows, chunk)


def _prepared(tree: Tree, table: Table, engine: str, compiling) -> tuple:
    """(``tree``'s layout for ``table``, its depth, whether the compiled kernel walks it), having
    announced the kernel's compile to ``compiling(seconds)`` when it is not in the cache."""
    from dtcli.induction.backend import compiled_prediction
    from dtcli.induction.predict.compiled import kernels

    flat = layout(tree, table)
    levels = depth(flat)
    if not (compiled_prediction(table.n_rows, levels, engine) and kernels() is not None):
        return flat, levels, False
    from dtcli.induction.backend import prediction_compile_seconds

    seconds = prediction_compile_seconds() if compiling is not None else 0
    if seconds:
        compiling(seconds)
    return flat, levels, True


def _numpy_chunks(flat, n_rows: int, chunk: int):
    """``descend`` of rows ``chunk`` at a time: (start, stop, their probabilities)."""
    step = max(1, chunk)
    for start in range(0, n_rows, step):
        stop = min(start + step, n_rows)
        yield start, stop, descend(flat, np.arange(start, stop))


def predictor(tree: Tree, table: Table, rows: int, engine: str = "auto", compiling=None, threads=None):
    """``predict_proba`` for one table after another with ``table``'s columns (chunks of a file),
    the tree laid out once: a function of such a table. ``rows``: about how many rows all the
    tables hold (the engine is chosen for those); ``compiling`` as for ``predict_proba``;
    ``threads``: at most this many threads for the compiled kernel (None: all it has)."""
    return laid_out_predictor(layout(tree, table), rows, engine, compiling, threads)


def laid_out_predictor(flat: _Layout, rows: int, engine: str = "auto", compiling=None, threads=None):
    """``predictor`` of a tree already laid out (``layout``; its columns are set by each call)."""
    from dtcli.induction.backend import compiled_prediction
    from dtcli.induction.predict.compiled import kernels

    levels = depth(flat)
    if compiled_prediction(rows, levels, engine) and kernels() is not None:
        from dtcli.induction.backend import prediction_compile_seconds
        from dtcli.induction.predict.compiled import packed_predictor

        seconds = prediction_compile_seconds() if compiling is not None else 0
        if seconds:
            compiling(seconds)
        return packed_predictor(flat, levels, threads)

    def run(part: Table) -> np.ndarray:
        flat.columns = part.columns
        return descend(flat, np.arange(part.n_rows))

    return run


def depth(flat: _Layout) -> int:
    """The number of splits on the longest path of the layout's tree (slots are breadth first,
    so each level is a range of slots, the next one starting at its first node's first child)."""
    n = len(flat.leaf)
    levels, lo, hi = 0, 0, 1
    while hi > lo:
        levels += 1
        lo, hi = hi, int(flat.cstart[hi]) if hi < n else n
    return levels - 1


def layout(tree: Tree, table: Table) -> _Layout:
    """``tree`` as the arrays ``descend`` walks, for the rows of ``table``."""
    width = 1 if tree.schema.is_regression else len(tree.classes)
    fractional = tree.parameters.get("missing", "fractional") not in FILL  # filled: the heaviest branch
    flat = _Layout(getattr(tree, "root", None), table, width, fractional, getattr(tree, "flat_nodes", None))
    if single_precision(tree.algorithm, tree.parameters):  # scikit-learn's tests: x as a single <= t
        flat.thr = np.where(flat.numeric, single_boundaries(flat.thr), flat.thr)
    # a classification tree sending missing values down every branch: such rows are summed as J48 sums them
    flat.weka = fractional and not tree.schema.is_regression and flat.mixture is None
    return flat


def single_boundaries(thresholds: np.ndarray) -> np.ndarray:
    """``number_text.single_boundary`` of each threshold, at once (a tree of a million tests costs
    array operations, not a million calls): the midpoint of the single-precision neighbours ``a <= t
    < b``, or the double just below it when ``a``'s last bit is 1; a threshold beyond single
    precision's range, or not finite, as it is."""
    t = np.asarray(thresholds, dtype=np.float64)
    inside = np.isfinite(t) & (np.abs(t) < 3.4e38)
    t_in = np.where(inside, t, 0.0)
    a = t_in.astype(np.float32)  # rounded to nearest
    a = np.where(a.astype(np.float64) > t_in, np.nextafter(a, np.float32(-np.inf)), a)
    b = np.nextafter(a, np.float32(np.inf))
    middle = (a.astype(np.float64) + b.astype(np.float64)) / 2
    even = (a.view(np.uint32) & 1) == 0
    return np.where(inside, np.where(even, middle, np.nextafter(middle, -np.inf)), t)


def descend(flat: _Layout, rows: np.ndarray, leaves: list | None = None) -> np.ndarray:
    """The class distributions (``predict_proba``) of ``rows`` (row numbers of the layout's
    table), one row of the result each. Each row's sums depend on its own records only, so a
    subset of rows gets the numbers the whole table would. ``leaves``, when given, receives a
    (rows, slots, weights) triple of arrays a level: the leaves each row reaches, with the record's
    weight (a row with a missing value may reach several; at a wide split of leaves, the split
    itself, see ``_mixed``)."""
    width = flat.dist.shape[1]
    table_rows = rows
    n_rows = len(rows)
    proba = np.zeros((n_rows, width), dtype=np.float64)
    rows = np.arange(n_rows)  # positions in ``table_rows``
    slots = np.zeros(n_rows, dtype=np.int64)
    weights = np.ones(n_rows)
    split = []  # positions of rows that met a missing value: summed again in J48's order
    while len(rows):
        leaf = flat.leaf[slots]
        if leaves is not None:
            leaves.append((table_rows[rows[leaf]], slots[leaf], weights[leaf]))
        if leaf.any():  # each row's records at leaves of this level summed first, then added
            ended, index = np.unique(rows[leaf], return_inverse=True)
            for c in range(width):
                proba[ended, c] += np.bincount(index, weights[leaf] * flat.dist[slots[leaf], c], minlength=len(ended))
            rows, slots, weights = rows[~leaf], slots[~leaf], weights[~leaf]
        if not len(rows):
            break
        branch = flat.route(table_rows[rows], slots)
        known = branch >= 0
        missing = np.flatnonzero(~known)
        if len(missing) and flat.weka:
            split.append(rows[missing])
        next_rows, next_weights = [rows[known]], [weights[known]]
        next_slots = [flat.cstart[slots[known]] + branch[known]]
        if len(missing) and flat.mixture is not None:
            missing = _mixed(flat, missing, rows, slots, weights, proba, table_rows, leaves)
        if len(missing):  # one record a branch with a positive share, branches in order
            at = slots[missing]
            many = flat.fanout[at]
            picked = np.repeat(missing, many)
            first = np.repeat(flat.fan_start[at] - (np.cumsum(many) - many), many) + np.arange(len(picked))
            next_rows.append(rows[picked])
            next_slots.append(flat.fan_child[first])
            next_weights.append(weights[picked] * flat.fan_share[first])
        rows, slots, weights = np.concatenate(next_rows), np.concatenate(next_slots), np.concatenate(next_weights)
    if split:
        again = np.flatnonzero(np.bincount(np.concatenate(split)))  # sorted, distinct (np.unique imports numpy.ma)
        proba[again] = in_weka_order(flat, table_rows[again])
    return proba


def _mixed(flat: _Layout, missing: np.ndarray, rows, slots, weights, proba, table_rows, leaves) -> np.ndarray:
    """Rows with a missing value at a wide split of leaves take its leaves' mixture at once
    (instead of a record per branch: a million-value split, a million records a row; ``leaves``
    then gets the split's slot, as if it were the leaf reached); returns the other missing ones."""
    mixed = flat.mixed[slots[missing]]
    if not mixed.any():
        return missing
    done = missing[mixed]
    if leaves is not None:
        leaves.append((table_rows[rows[done]], slots[done], weights[done]))
    ended, index = np.unique(rows[done], return_inverse=True)
    for c in range(proba.shape[1]):
        proba[ended, c] += np.bincount(index, weights[done] * flat.mixture[slots[done], c], minlength=len(ended))
    return missing[~mixed]


MIX_FANOUT = 64  # a split of more branches than this, all leaves, is mixed once for missing values


class _Layout:
    """The tree breadth first as arrays (children of a node in consecutive slots), with what
    routing needs: each slot's column, test and leaf distribution, and where a missing value
    goes: the branches with a positive share, listed sparsely (``fan_*``: a split on an
    attribute of a million values costs its branches, not a row of a million shares a node)."""

    def __init__(self, root: Node | None, table: Table, width: int, fractional: bool, flat=None):
        index = {a.name: j for j, a in enumerate(table.attributes)}
        self.columns = table.columns
        if flat is None:
            self.nodes, tests, counts, values, labels, valued = self._from_nodes(root)
            self.attr = np.array([-1 if test is None else index[test.attribute.name] for test in tests])
            self.thr = np.array([getattr(test, "threshold", 0.0) if test is not None else 0.0 for test in tests])
        else:  # ``model.flat_json.FlatNodes``: the same arrays, read without Node objects
            self.nodes, tests, counts, values, labels = None, flat.tests, flat.counts, flat.value, flat.label
            valued = ~np.isnan(values)  # (a model file's values are finite)
            self.parent, self.cstart = flat.parent, flat.cstart
            names = np.array([index[a.name] for a in table.schema.attributes] + [-1], dtype=np.int64)
            self.attr, self.thr = names[flat.attr], flat.thr
        if flat is None:
            self.leaf = np.array([test is None for test in tests], dtype=bool)
            self.numeric = np.array([isinstance(test, NumericTest) for test in tests], dtype=bool)
            self.subset = np.array([isinstance(test, SubsetTest) for test in tests], dtype=bool)
        else:  # each slot's kind of test, read with it
            self.leaf, self.numeric, self.subset = (flat.kind == k for k in (LEAF, NUMERIC, SUBSET))
        self.totals = counts.sum(axis=1)  # each node's ``counts.sum()``, to the bit (rows summed as 1-d arrays)
        self.dist = self._leaf_distributions(counts, values, labels, valued, width)
        self.subsets = {slot: tests[slot] for slot in np.flatnonzero(self.subset).tolist()}
        self._fan(fractional)

    def _from_nodes(self, root: Node):
        """The nodes breadth first (setting ``parent`` and ``cstart``), their tests, counts, values, labels,
        and which have a value."""
        nodes, starts, parent = [root], [], [-1]
        i = 0
        while i < len(nodes):
            children = nodes[i].children
            starts.append(len(nodes))
            if children:
                nodes.extend(children)
                parent.extend([i] * len(children))
            i += 1
        self.parent = np.array(parent, dtype=np.int64)
        self.cstart = np.array(starts, dtype=np.int64)
        counts = np.array([node.counts for node in nodes], dtype=np.float64).reshape(len(nodes), -1)
        values = np.array([np.nan if node.value is None else node.value for node in nodes], dtype=np.float64)
        labels = np.array([node.label for node in nodes], dtype=np.int64)
        valued = np.array([node.value is not None for node in nodes], dtype=bool)
        return nodes, [node.test for node in nodes], counts, values, labels, valued

    def _leaf_distributions(self, counts, values, labels, valued, width: int) -> np.ndarray:
        """``leaf_distribution`` of every leaf slot (zeros at splits), computed for all at once
        (``values`` where ``valued``: a regression node's mean)."""
        n = len(counts)
        dist = np.zeros((n, width))
        valued = self.leaf & valued
        dist[valued, 0] = values[valued]
        rest = self.leaf & ~valued
        own = rest & (self.totals > EMPTY)
        dist[own] = counts[own] / self.totals[own, None]
        up = np.where(self.parent >= 0, self.parent, 0)
        above = rest & ~own & (self.parent >= 0) & (self.totals[up] > EMPTY)
        dist[above] = counts[up[above]] / self.totals[up[above], None]
        for slot in np.flatnonzero(rest & ~own & ~above).tolist():  # an empty root, or an empty leaf of one
            dist[slot] = 0.0
            dist[slot, labels[slot]] = 1.0
        return dist

    def _fan(self, fractional: bool) -> None:
        """For each split slot, its branches of positive share (``fan_start``, ``fanout``) as child
        slots and shares (``fan_child``, ``fan_share``): every branch in proportion to its
        training weight (all alike when there is none), or only the heaviest one."""
        n = len(self.leaf)
        splits = np.flatnonzero(~self.leaf)
        many = np.diff(np.append(self.cstart, n))  # children of each slot
        share = np.zeros(n)  # each child slot's share of its parent's branches
        for k in np.flatnonzero(
            np.bincount(many[splits])
        ).tolist():  # splits of k branches at once: their sizes, a row each
            at = splits[many[splits] == k]
            kids = self.cstart[at][:, None] + np.arange(k)
            sizes = self.totals[kids]
            if not fractional:
                part = np.zeros((len(at), k))
                part[np.arange(len(at)), np.argmax(sizes, axis=1)] = 1.0
            else:
                total = sizes.sum(axis=1)
                part = np.full((len(at), k), 1.0 / k)
                weighed = total > 0
                part[weighed] = sizes[weighed] / total[weighed, None]
            share[kids] = part
        positive = np.zeros(n, dtype=bool)
        positive[1:] = share[1:] > 0
        self.fan_child = np.flatnonzero(positive).astype(np.int64)  # slot order: parents, then branches, in order
        self.fan_share = share[positive]
        self.fanout = np.bincount(self.parent[positive], minlength=n).astype(np.int64)
        self.fan_start = np.where(self.leaf, 0, np.cumsum(self.fanout) - self.fanout).astype(np.int64)
        self.mixed = np.zeros(n, dtype=bool)
        self.mixture = None
        for slot in np.flatnonzero(self.fanout > MIX_FANOUT).tolist():
            first = self.fan_start[slot]
            below = self.fan_child[first : first + self.fanout[slot]]
            if self.leaf[below].all():  # the mixture of the leaves' distributions, by share
                if self.mixture is None:
                    self.mixture = np.zeros_like(self.dist)
                share = self.fan_share[first : first + self.fanout[slot]]
                self.mixture[slot] = (share[:, None] * self.dist[below]).sum(axis=0)
                self.mixed[slot] = True

    def route(self, rows: np.ndarray, slots: np.ndarray) -> np.ndarray:
        """Branch of each (row, internal slot) pair; -1 where the tested value is missing."""
        branch = np.full(len(rows), -1, dtype=np.int64)
        attrs = self.attr[slots]
        present = np.flatnonzero(np.bincount(attrs))  # the attributes tested here (no sort)
        for a in present.tolist():
            here = slice(None) if len(present) == 1 else np.flatnonzero(attrs == a)
            values = self.columns[a][rows[here]]
            if values.dtype.kind == "f":
                with np.errstate(invalid="ignore"):
                    side = np.where(values <= self.thr[slots[here]], 0, 1)
                branch[here] = np.where(np.isnan(values), -1, side)
            else:
                branch[here] = values
        if self.subsets:
            for slot in _distinct(slots[self.subset[slots]]).tolist():  # the subset tests at this level
                here = np.flatnonzero(slots == slot)
                test = self.subsets[slot]
                branch[here] = test.route(self.columns[self.attr[slot]][rows[here]])
        return branch


def predict(tree: Tree, table: Table) -> np.ndarray:
    """Predicted class codes: the most probable class, first in order on ties."""
    return np.argmax(predict_proba(tree, table), axis=1)


def predict_values(tree: Tree, table: Table) -> np.ndarray:
    """Regression: the mean of the leaf each row reaches (weighted over leaves when
    a missing value sends it down several branches)."""
    return predict_proba(tree, table)[:, 0]


def leaf_distribution(node: Node, parent: Node | None = None) -> np.ndarray:
    """What a leaf predicts: its class shares, or its mean. An empty leaf: its parent's class
    shares (J48's rule), or a one-hot label when there is no parent or it is empty too."""
    if node.value is not None:
        return np.array([node.value])
    total = node.counts.sum()
    if total > EMPTY:
        return node.counts / total
    if parent is not None and parent.counts.sum() > EMPTY:
        return parent.counts / parent.counts.sum()
    one_hot = np.zeros_like(node.counts)
    one_hot[node.label] = 1.0
    return one_hot


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values, sorted (as ``np.unique``, which imports numpy.ma: 15 ms a start)."""
    ordered = np.sort(values)
    return ordered[np.append(True, ordered[1:] != ordered[:-1])] if len(ordered) else ordered
