"""A partition's class sums along the pruning's paths of tests, row by row (numba; ``paths.py`` says what a path is).

``path_sums`` takes the paths as ``paths.Paths`` lists them (sorted: a prefix before its extensions)
and sends each labelled row down the trie they make: from a path the row reached with weight ``w``, to
each extension whose condition it meets (a known value taking the condition's branch: ``w``; a
missing value: ``w x share`` rounded to the grid of ``scale`` when the share exceeds 1e-6, else not
at all), adding its weight to the extension's class sums; a row lacking the tested value adds ``w``
to the extension's "lacking" sums (the parent's rows lacking the value). Every weight lies on the
grid, so the sums are those of ``paths.path_counts``' walk path by path, in any order.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel


@kernel
def path_sums(depth, attr, thr, branch, share, is_nominal, slot, nominal, numeric, y, n_classes, scale):
    """(class sums, lacking sums) per path: two (paths, classes) arrays."""
    n = depth.shape[0]
    deepest = 0
    for q in range(n):
        deepest = max(deepest, depth[q])
    parent = np.full(n, -1, dtype=np.int64)
    last = np.full(deepest + 1, -1, dtype=np.int64)
    n_children = np.zeros(n + 1, dtype=np.int64)  # (the root's at n)
    for q in range(n):
        d = depth[q]
        last[d] = q
        parent[q] = last[d - 1] if d > 1 else n
        n_children[parent[q]] += 1
    first = np.zeros(n + 2, dtype=np.int64)
    for p in range(n + 1):
        first[p + 1] = first[p] + n_children[p]
    children = np.empty(n, dtype=np.int64)
    filled = first[:-1].copy()
    for q in range(n):
        p = parent[q]
        children[filled[p]] = q
        filled[p] += 1
    counts = np.zeros((n, n_classes))
    lacking = np.zeros((n, n_classes))
    stack_path = np.empty(n + 1, dtype=np.int64)
    stack_weight = np.empty(n + 1)
    for r in range(y.shape[0]):
        c = y[r]
        if c < 0:
            continue
        top = 0
        stack_path[0], stack_weight[0] = n, 1.0
        top = 1
        while top > 0:
            top -= 1
            p, w = stack_path[top], stack_weight[top]
            for k in range(first[p], first[p + 1]):
                q = children[k]
                a = attr[q]
                if is_nominal[a]:
                    code = nominal[slot[a], r]
                    missing = code < 0
                    takes = code == branch[q]
                else:
                    v = numeric[slot[a], r]
                    missing = np.isnan(v)
                    takes = v <= thr[q] if branch[q] == 0 else (not missing and not v <= thr[q])
                if missing:
                    lacking[q, c] += w
                    if not share[q] > SMALL:
                        continue
                    wq = np.rint(w * share[q] * scale) / scale
                elif takes:
                    wq = w
                else:
                    continue
                counts[q, c] += wq
                if first[q + 1] > first[q]:
                    stack_path[top], stack_weight[top] = q, wq
                    top += 1
    return counts, lacking
