"""What each partition computes for pruning, on a worker: its rows' class counts along paths of tests.

A path is a chain of conditions from the root, each ``(attribute, threshold, branch)`` (attribute by
schema position; the threshold 0.0 for a nominal test): the rows that take that branch of every test.
``Paths`` lists the paths asked for with all their prefixes, in the order of sorted tuples (a prefix
before its extensions, an extension right after its prefix's other extensions): each row of it is the
depth and the last condition. Per path, a partition returns its labelled rows' class counts and how
many of its parent path's rows lack the tested value (the client refuses to count those: C4.5 would
split them into fractional cases).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Paths(NamedTuple):
    depth: np.ndarray  # (paths,) length of each path, from 1
    attr: np.ndarray
    thr: np.ndarray
    branch: np.ndarray
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
        is_nominal,
        slot,
    )
    return listed, arrays


def path_counts(enc, paths: Paths, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """This partition's (class counts, missing) per path: (paths, classes) and (paths,)."""
    n = len(paths.depth)
    counts = np.zeros((n, n_classes), dtype=np.int64)
    missing = np.zeros(n, dtype=np.int64)
    stack = [np.flatnonzero(enc.y >= 0)]  # the rows along the current path's prefixes
    for q in range(n):
        del stack[int(paths.depth[q]) :]
        rows = stack[-1]
        a = int(paths.attr[q])
        if paths.is_nominal[a]:
            codes = enc.nominal[paths.slot[a]][rows]
            lack = codes < 0
            take = codes == paths.branch[q]
        else:
            values = enc.numeric[paths.slot[a]][rows]
            lack = np.isnan(values)
            below = values <= paths.thr[q]
            take = below if paths.branch[q] == 0 else ~below & ~lack
        here = rows[take]
        missing[q] = int(lack.sum())
        counts[q] = np.bincount(enc.y[here], minlength=n_classes)
        stack.append(here)
    return counts, missing
