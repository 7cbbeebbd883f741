"""What each partition keeps on its worker while a tree grows: its records at the frontier, one level at a time.

A partition's labelled rows start at the root as records ``(row, weight, node)`` of weight 1 and are
carried down each level's tests as the level-wise engine's ``spread`` kernel carries them: a row
whose tested value is known goes down its branch with its weight; one whose value is missing becomes
one record per branch whose share exceeds 1e-6 (``SMALL``), weighing ``on_grid(weight x share)``
(C4.5's fractional cases on the grid of ``--max-bins``: every sum of weights is exact, so the
partitions' sums add up, in any order, to the bits the local engine's one pass gives). The records
stay on the worker between levels (the client holds their futures), so a level costs one pass over
them, not a walk from the root.

Contract: ``start``, ``advance`` (one level down), ``node_counts`` (class weights per frontier
node) and ``branch_sizes`` (each split node's known weight per branch), all run on workers.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dtcli.induction.criteria.constants import SMALL, on_grid


class Records(NamedTuple):
    row: np.ndarray
    w: np.ndarray
    node: np.ndarray


class Blocks(NamedTuple):
    """Where each attribute (schema position) is in the encoded partition: nominal or not, and its slot."""

    is_nominal: np.ndarray
    slot: np.ndarray


def start(enc) -> Records:
    """This partition's records at the root: its labelled rows, each of weight 1."""
    row = np.flatnonzero(enc.y >= 0)
    return Records(row, np.ones(len(row)), np.zeros(len(row), dtype=np.int64))


def advance(enc, recs: Records, test: tuple, blocks: Blocks) -> Records:
    """The records one level down: ``test`` is the level's (attr, thr, cstart, shares) by node, and
    for CART's ``A in V`` tests (sides) too."""
    attr, thr, cstart, shares = test[:4]
    return _spread(recs, branches(enc, blocks, recs, attr, thr, *test[4:]), shares, cstart)


def branches(enc, blocks: Blocks, recs: Records, attr, thr, sides=None) -> np.ndarray:
    """Each record's branch at its node's test (-1: the tested value is missing, -2: a leaf). A nominal
    test's branch is the value, or with ``sides`` (CART's ``A in V`` tests: the sorted keys node x width
    + value of each V's values, and the width) 0 for a value in its node's V, else 1."""
    a = attr[recs.node]
    branch = np.full(len(recs.row), -2, dtype=np.int64)
    for i in np.unique(a[a >= 0]):
        at = np.flatnonzero(a == i)
        rows = recs.row[at]
        if blocks.is_nominal[i]:
            codes = enc.nominal[blocks.slot[i]][rows].astype(np.int64)
            if sides is None:
                branch[at] = codes
            else:
                keys, width = sides
                inside = np.isin(recs.node[at] * width + codes, keys)
                branch[at] = np.where(codes < 0, -1, np.where(inside, 0, 1))
        else:
            values = enc.numeric[blocks.slot[i]][rows]
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


def node_counts(enc, recs: Records, n_nodes: int, n_classes: int) -> np.ndarray:
    """This partition's class weights per frontier node (nodes, classes)."""
    at = recs.node * n_classes + enc.y[recs.row]
    return np.bincount(at, weights=recs.w, minlength=n_nodes * n_classes).reshape(n_nodes, n_classes)


def branch_sizes(enc, recs: Records, test: tuple, blocks: Blocks, width: int) -> np.ndarray:
    """This partition's known weight per branch of each frontier node's test (``test``: the level's
    (attr, thr) by node; attr -1: no test): a (nodes, width) array."""
    attr, thr = test
    branch = branches(enc, blocks, recs, attr, thr)
    known = branch >= 0
    at = recs.node[known] * width + branch[known]
    return np.bincount(at, weights=recs.w[known], minlength=len(attr) * width).reshape(len(attr), width)
