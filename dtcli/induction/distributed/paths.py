"""What each partition computes for pruning, on a worker: its rows' class sums along paths of tests.

A path is a chain of conditions from the root, each ``(attribute, threshold, branch, share)``
(attribute by schema position; the threshold 0.0 for a nominal test): the rows that take that
branch of every test, as C4.5 sends them. A row that knows the tested value keeps its weight if it
takes the branch; a row lacking it goes down with weight ``on_grid(weight * share)`` when ``share``
exceeds 1e-6 (``constants.gr``), else not at all (share 0.0: the branch's known rows only).
Every weight is then a multiple of 2**-24, so every sum below is exact in any order.
``Paths`` lists the paths asked for with all their prefixes, in the order of sorted tuples (a
prefix before its extensions, an extension right after its prefix's other extensions): each row of
it is the depth and the last condition. Per path, a partition returns the class sums of its rows
along the path and the class sums of its parent path's rows that lack the tested value.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from dtcli.induction.criteria.constants import GRID_SCALE


class Paths(NamedTuple):
    depth: np.ndarray  # (paths,) length of each path, from 1
    attr: np.ndarray
    thr: np.ndarray
    branch: np.ndarray
    share: np.ndarray  # of the weight of the parent's rows lacking the value (0.0: none of it)
    is_nominal: np.ndarray  # by attribute
    slot: np.ndarray  # attribute -> row in the encoded nominal or numeric block


def paths_of(asked, is_nominal: np.ndarray, slot: np.ndarray) -> tuple[list, Paths]:
    """The paths ``asked`` (tuples of conditions) with their prefixes, sorted, and their arrays."""
    every = set()
    for path in asked:
        for end in range(1, len(path) + 1):
            every.add(path[:end])
    listed = sorted(every)
    last = [path[-1] for path in listed]
    arrays = Paths(
        np.array([len(path) for path in listed], dtype=np.int64),
        np.array([c[0] for c in last], dtype=np.int64),
        np.array([c[1] for c in last], dtype=np.float64),
        np.array([c[2] for c in last], dtype=np.int64),
        np.array([c[3] for c in last], dtype=np.float64),
        is_nominal,
        slot,
    )
    return listed, arrays


def path_counts(enc, paths: Paths, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """This partition's (class sums, class sums of the parent's rows lacking the value) per path:
    two (paths, classes) arrays (``kernels/paths.path_sums``: each row down the trie of paths)."""
    from dtcli.induction.distributed.kernels.paths import path_sums

    if len(paths.depth) == 0:
        return np.zeros((0, n_classes)), np.zeros((0, n_classes))
    return path_sums(
        paths.depth,
        paths.attr,
        paths.thr,
        paths.branch,
        paths.share,
        paths.is_nominal,
        paths.slot,
        np.ascontiguousarray(enc.nominal),
        np.ascontiguousarray(enc.numeric),
        enc.y,
        n_classes,
        float(GRID_SCALE),
    )


def missing_by_attribute(enc, is_nominal: np.ndarray, slot: np.ndarray) -> np.ndarray:
    """How many of this partition's labelled rows lack each attribute's value (by schema position)."""
    labelled = enc.y >= 0
    out = np.zeros(len(is_nominal), dtype=np.int64)
    for a in range(len(is_nominal)):
        if is_nominal[a]:
            out[a] = int((enc.nominal[slot[a]][labelled] < 0).sum())
        else:
            out[a] = int(np.isnan(enc.numeric[slot[a]][labelled]).sum())
    return out
