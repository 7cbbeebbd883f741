"""What each partition computes at a level, on a worker: its rows' frontier nodes and class counts.

Each partition's rows are routed down the tree grown so far to the frontier (numpy only), then
counted per (node, attribute value or bin, class).

``Tests``: the levels grown so far as arrays (per level: each slot's attribute, -1 for a leaf,
threshold, branch count, first child's slot in the next level), attribute by schema position.
A row whose tested value is missing stops (the client refuses such splits before they happen).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dtcli.induction.distributed.quantiles import bin_of


class Tests(NamedTuple):
    levels: tuple  # per level: (attr, thr, nb, cstart)
    is_nominal: np.ndarray
    slot: np.ndarray  # attribute -> row in the encoded nominal or numeric block


def frontier(enc, tests: Tests) -> np.ndarray:
    """Each row's slot at the frontier (-1: unlabelled, at a leaf above, or stopped by a missing value)."""
    node = np.where(enc.y >= 0, 0, -1)
    for attr, thr, _nb, cstart in tests.levels:
        here = node >= 0
        a = np.where(here, attr[np.maximum(node, 0)], -1)
        branch = np.full(len(node), -1)
        for i in np.unique(a[a >= 0]):
            rows = a == i
            if tests.is_nominal[i]:
                branch[rows] = enc.nominal[tests.slot[i]][rows]
            else:
                values = enc.numeric[tests.slot[i]][rows]
                t = thr[node[rows]]
                branch[rows] = np.where(np.isnan(values), -1, np.where(values <= t, 0, 1))
        node = np.where(branch >= 0, cstart[np.maximum(node, 0)] + branch, -1)
    return node


def _counts(node, codes, n_values: int, y, n_nodes: int, n_classes: int) -> np.ndarray:
    codes = np.where(codes < 0, n_values, codes)  # the last value: missing
    at = (node * (n_values + 1) + codes) * n_classes + y
    return np.bincount(at, minlength=n_nodes * (n_values + 1) * n_classes).reshape(n_nodes, n_values + 1, n_classes)


def histograms(enc, tests: Tests, n_nodes: int, n_classes: int, n_values: tuple, bins: dict) -> dict:
    """This partition's counts at the frontier: ``counts`` (node, class), ``nominal`` (one array per
    nominal attribute: node, value + missing, class) and ``numeric`` (per binned one: node, bin + missing,
    class). ``n_values``: per nominal slot; ``bins``: per numeric slot (edges, renumbering, tops)."""
    node = frontier(enc, tests)
    rows = node >= 0
    node, y = node[rows], enc.y[rows]
    counts = np.bincount(node * n_classes + y, minlength=n_nodes * n_classes).reshape(n_nodes, n_classes)
    nominal = tuple(
        _counts(node, enc.nominal[j][rows], n_values[j], y, n_nodes, n_classes) for j in range(len(n_values))
    )
    numeric = tuple(
        _counts(node, bin_of(enc.numeric[j][rows], e, r), len(t), y, n_nodes, n_classes)
        for j, (e, r, t) in sorted(bins.items())
    )
    return {"counts": counts, "nominal": nominal, "numeric": numeric}
