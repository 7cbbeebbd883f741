"""What each partition computes for pruning, on a worker: its rows' class sums along paths of tests.

A path is a chain of conditions from the root, each ``(attribute, threshold, branch, share)``
(attribute by schema position; the threshold 0.0 for a nominal test): the rows that take that
branch of every test, as C4.5 sends them. A row that knows the tested value keeps its weight if it
takes the branch; a row lacking it goes down with weight ``on_grid(weight * share)`` when ``share``
exceeds 1e-6 (``constants.gr``), else not at all (share 0.0: the branch's known rows only).
Every weight is then a multiple of 2**-24, so every sum below is exact in any order.
The client holds paths interned in a ``Trie``: each path an integer id (0: the root, no condition),
made of its parent's id and its last condition, so a path costs one entry however deep it lies.
``Paths`` lists the paths asked for with all their prefixes in preorder (a prefix before its
extensions, and a path's extensions, with theirs, right after it): each row of it is the depth and
the last condition. Per path, a partition returns the class sums of its rows along the path and the
class sums of its parent path's rows that lack the tested value.
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


class Trie:
    """Paths interned as integer ids: ``child(parent, condition)`` is the same id for the same path
    every time; id 0 is the root. Its columns grow by doubling."""

    ROOT = 0

    def __init__(self):
        self.ids: dict = {}  # (parent id, *condition) -> id
        self.n = 1
        self.parent = np.full(1024, -1, dtype=np.int64)
        self.depth = np.zeros(1024, dtype=np.int64)
        self.attr = np.zeros(1024, dtype=np.int64)
        self.thr = np.zeros(1024)
        self.branch = np.zeros(1024, dtype=np.int64)
        self.share = np.zeros(1024)

    def child(self, parent: int, condition: tuple) -> int:
        """The id of ``parent``'s path extended by ``condition`` (attribute, threshold, branch, share)."""
        key = (parent, *condition)
        found = self.ids.get(key)
        if found is not None:
            return found
        q = self.n
        if q == len(self.parent):
            for name in ("parent", "depth", "attr", "thr", "branch", "share"):
                column = getattr(self, name)
                setattr(self, name, np.concatenate([column, np.zeros_like(column)]))
        self.parent[q], self.depth[q] = parent, self.depth[parent] + 1
        self.attr[q], self.thr[q], self.branch[q], self.share[q] = condition
        self.ids[key] = q
        self.n = q + 1
        return q

    def last(self, q: int) -> tuple:
        """Path ``q``'s last condition."""
        return (int(self.attr[q]), float(self.thr[q]), int(self.branch[q]), float(self.share[q]))

    def listing(self, asked, is_nominal: np.ndarray, slot: np.ndarray) -> tuple[np.ndarray, Paths]:
        """The paths ``asked`` (ids, not the root) with their prefixes, in preorder, and their arrays."""
        taken = {self.ROOT}
        below: dict = {}  # id -> its taken extensions
        for q in asked:
            while q not in taken:
                taken.add(q)
                parent = int(self.parent[q])
                below.setdefault(parent, []).append(q)
                q = parent
        order: list = []
        stack = list(below.get(self.ROOT, ()))
        while stack:
            q = stack.pop()
            order.append(q)
            stack.extend(below.get(q, ()))
        listed = np.array(order, dtype=np.int64)
        arrays = Paths(
            self.depth[listed],
            self.attr[listed],
            self.thr[listed],
            self.branch[listed],
            self.share[listed],
            is_nominal,
            slot,
        )
        return listed, arrays


def path_counts(enc, paths: Paths, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """This partition's (class sums, class sums of the parent's rows lacking the value) per path:
    two (paths, classes) arrays (``kernels/paths.path_sums``: each row down the trie of paths)."""
    from dtcli.induction.distributed.kernels.path_sums import path_sums

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
