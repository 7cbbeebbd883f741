"""What each partition computes at a level, on a worker: its records at the frontier and their weighted counts.

Each partition's labelled rows are carried down the tree grown so far (numpy only) as records
``(row, weight, node)``, as the level-wise engine's ``spread`` kernel carries them: a row whose
tested value is known goes down its branch with its weight; one whose value is missing becomes one
record per branch whose share exceeds 1e-6 (``SMALL``), weighing ``on_grid(weight x share)``
(C4.5's fractional cases on the grid of ``--max-bins``: every sum of weights is exact, so the
partitions' sums add up, in any order, to the bits the local engine's one pass gives). The
records are then counted with their weights per (node, class) and per (node, attribute value or
bin, class).

``Tests``: the levels grown so far as arrays (per level: each slot's attribute, -1 for a leaf,
threshold, branch count, first child's slot in the next level, and each branch's share of the
node's known weight), attribute by schema position.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dtcli.induction.criteria.constants import SMALL, on_grid
from dtcli.induction.distributed.quantiles import bin_of


class Tests(NamedTuple):
    levels: tuple  # per level: (attr, thr, nb, cstart, shares)
    is_nominal: np.ndarray
    slot: np.ndarray  # attribute -> row in the encoded nominal or numeric block


class Records(NamedTuple):
    row: np.ndarray
    w: np.ndarray
    node: np.ndarray


def frontier(enc, tests: Tests) -> Records:
    """This partition's records at the frontier (labelled rows only; none at a leaf above)."""
    row = np.flatnonzero(enc.y >= 0)
    recs = Records(row, np.ones(len(row)), np.zeros(len(row), dtype=np.int64))
    for attr, thr, _nb, cstart, shares in tests.levels:
        recs = _spread(recs, branches(enc, tests, recs, attr, thr), shares, cstart)
    return recs


def branches(enc, tests: Tests, recs: Records, attr, thr) -> np.ndarray:
    """Each record's branch at its node's test (-1: the tested value is missing, -2: a leaf)."""
    a = attr[recs.node]
    branch = np.full(len(recs.row), -2, dtype=np.int64)
    for i in np.unique(a[a >= 0]):
        at = np.flatnonzero(a == i)
        rows = recs.row[at]
        if tests.is_nominal[i]:
            branch[at] = enc.nominal[tests.slot[i]][rows]
        else:
            values = enc.numeric[tests.slot[i]][rows]
            branch[at] = np.where(np.isnan(values), -1, np.where(values <= thr[recs.node[at]], 0, 1))
    return branch


def _spread(recs: Records, branch, shares, cstart) -> Records:
    """The next level's records (``levelwise/kernels/loops.py: spread``; their order does not matter)."""
    known = np.flatnonzero(branch >= 0)
    missing = np.flatnonzero(branch == -1)
    copy, into = np.nonzero(shares[recs.node[missing]] > SMALL)
    copied = missing[copy]
    weights = on_grid(recs.w[copied] * shares[recs.node[copied], into])
    return Records(
        np.concatenate([recs.row[known], recs.row[copied]]),
        np.concatenate([recs.w[known], weights]),
        np.concatenate([cstart[recs.node[known]] + branch[known], cstart[recs.node[copied]] + into]),
    )


def _counts(recs: Records, y, codes, n_values: int, n_nodes: int, n_classes: int) -> np.ndarray:
    codes = np.where(codes < 0, n_values, codes)  # the last value: missing
    at = (recs.node * (n_values + 1) + codes) * n_classes + y
    size = n_nodes * (n_values + 1) * n_classes
    return np.bincount(at, weights=recs.w, minlength=size).reshape(n_nodes, n_values + 1, n_classes)


def histograms(enc, tests: Tests, n_nodes: int, n_classes: int, n_values: tuple, bins: dict) -> dict:
    """This partition's weights at the frontier: ``counts`` (node, class), ``nominal`` (one array per
    nominal attribute: node, value + missing, class), ``numeric`` (per binned one: node, bin +
    missing, class) and ``records`` (per binned one: node, bin + missing; how many records, which
    the cut search counts as ``c45_binned`` does). ``n_values``: per nominal slot; ``bins``: per
    numeric slot (edges, renumbering, tops)."""
    recs = frontier(enc, tests)
    y = enc.y[recs.row]
    counts = np.bincount(recs.node * n_classes + y, weights=recs.w, minlength=n_nodes * n_classes)
    nominal = tuple(
        _counts(recs, y, enc.nominal[j][recs.row], n_values[j], n_nodes, n_classes) for j in range(len(n_values))
    )
    numeric, records = [], []
    for j, (e, r, t) in sorted(bins.items()):
        codes = bin_of(enc.numeric[j][recs.row], e, r)
        numeric.append(_counts(recs, y, codes, len(t), n_nodes, n_classes))
        at = recs.node * (len(t) + 1) + np.where(codes < 0, len(t), codes)
        records.append(np.bincount(at, minlength=n_nodes * (len(t) + 1)).reshape(n_nodes, len(t) + 1))
    return {
        "counts": counts.reshape(n_nodes, n_classes),
        "nominal": nominal,
        "numeric": tuple(numeric),
        "records": tuple(records),
    }


def branch_sizes(enc, tests: Tests, attr, thr, width: int) -> np.ndarray:
    """This partition's known weight per (frontier node, branch) of the tests ``attr``, ``thr`` (the
    client asks when a threshold is not a bin's largest value: ``--thresholds midpoint``)."""
    recs = frontier(enc, tests)
    branch = branches(enc, tests, recs, attr, thr)
    known = branch >= 0
    at = recs.node[known] * width + branch[known]
    return np.bincount(at, weights=recs.w[known], minlength=len(attr) * width).reshape(len(attr), width)
