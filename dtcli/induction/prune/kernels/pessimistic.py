"""C4.5's error-based pruning with subtree raising, compiled (numba), on a flat tree.

The same algorithm as ``pessimistic`` (the reference, which J48's tests pin
down), step for step and sum for sum, for trees of hundreds of thousands of
nodes: the tree is arrays indexed by node slot (children of a node are
``nb`` consecutive slots from ``cstart``), and a node's training cases are
``(rows, weights)`` arrays made on the way down and dropped on the way up.

The state travels as the namedtuples of ``prune.kernels.state``: the tree
(``t``: ``Flat``), the data (``d``: ``Cases``), the bound (``est``:
``Estimate``) and the output (``rec``: ``Record``). Decisions are written to
``steps_i`` (node, path entry, action, largest branch, test source) and
``steps_f`` (cases, leaf, tree and branch estimates); the path of each visit
to ``entries_i`` (parent entry, test source, branch).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dtcli.induction.criteria.constants import SMALL

LEAF, RAISE, KEEP = 0, 1, 2


@njit(cache=True, nogil=True)
def _j48(n, e, cf, z):
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (_j48_one(n, cf, z) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


@njit(cache=True, nogil=True)
def _j48_one(n, cf, z):
    if n <= 1.5:
        return max(n - 1.0, 0.0)
    f = 1.5 / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - 1.0


@njit(cache=True, nogil=True)
def _r8(n, e, cf, coeff):
    if e < 1e-6:
        return n * (1 - math.exp(math.log(cf) / n))
    if e < 0.9999:
        base = n * (1 - math.exp(math.log(cf) / n))
        return base + e * (_r8_one(n, cf, coeff) - base)
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    pr = (e + 0.5 + coeff / 2 + math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff)
    return n * pr - e


@njit(cache=True, nogil=True)
def _r8_one(n, cf, coeff):
    if n <= 1.5:
        return 0.67 * (n - 1.0)
    pr = (1.5 + coeff / 2 + math.sqrt(coeff * (1.5 * (1 - 1.5 / n) + coeff / 4))) / (n + coeff)
    return n * pr - 1.0


@njit(cache=True, nogil=True)
def errors(counts, est):
    """The pessimistic error estimate of a leaf with these class weights (``_Pruner.errors``)."""
    total = 0.0
    top = counts[0]
    for c in range(counts.shape[0]):
        total += counts[c]
        if counts[c] > top:
            top = counts[c]
    if total == 0.0 or abs(total) < SMALL:
        return 0.0
    wrong = total - top
    if total <= 0:
        return wrong
    return wrong + (_r8(total, wrong, est.cf, est.coeff) if est.r8 else _j48(total, wrong, est.cf, est.z))


@njit(cache=True, nogil=True)
def class_counts(rows, ws, y, n_classes):
    counts = np.zeros(n_classes)
    for i in range(rows.shape[0]):
        counts[y[rows[i]]] += ws[i]
    return counts


@njit(cache=True, nogil=True)
def split(node, rows, ws, t, d):
    """J48's split of a node's cases: the class distribution per branch (cases with a missing
    value spread by the known shares) and each branch's cases, concatenated (``offsets``)."""
    a = t.attr[node]
    nb = t.nb[node]
    n_classes, y = d.n_classes, d.y
    n = rows.shape[0]
    branch = np.empty(n, dtype=np.int64)
    sizes = np.zeros(nb)
    bags = np.zeros((nb, n_classes))
    unknown = np.zeros(n_classes)
    any_missing = False
    for i in range(n):
        r = rows[i]
        if d.is_nominal[a]:
            b = d.nominal[d.slot[a], r]
        else:
            v = d.numeric[d.slot[a], r]
            b = -1 if np.isnan(v) else (0 if v <= t.thr[node] else 1)
        branch[i] = b
        if b >= 0:
            sizes[b] += ws[i]
            bags[b, y[r]] += ws[i]
        else:
            unknown[y[r]] += ws[i]
            any_missing = True
    total = 0.0
    for b in range(nb):
        total += sizes[b]
    if any_missing:
        for b in range(nb):
            share = sizes[b] / total if not (total == 0.0 or abs(total) < SMALL) else 1.0 / nb
            for c in range(n_classes):
                bags[b, c] += share * unknown[c]
    shares = np.empty(nb)
    btotal = 0.0
    for b in range(nb):
        size = 0.0
        for c in range(n_classes):
            size += bags[b, c]
        shares[b] = size
        btotal += size
    for b in range(nb):
        shares[b] = shares[b] / btotal if not (btotal == 0.0 or abs(btotal) < SMALL) else 1.0 / nb
    offsets = np.zeros(nb + 1, dtype=np.int64)
    for b in range(nb):
        count = 0
        for i in range(n):
            if branch[i] == b or (branch[i] < 0 and shares[b] > SMALL):
                count += 1
        offsets[b + 1] = offsets[b] + count
    out_rows = np.empty(offsets[nb], dtype=rows.dtype)
    out_ws = np.empty(offsets[nb])
    for b in range(nb):
        j = offsets[b]
        for i in range(n):
            if branch[i] == b:
                out_rows[j], out_ws[j] = rows[i], ws[i]
                j += 1
            elif branch[i] < 0 and shares[b] > SMALL:
                out_rows[j], out_ws[j] = rows[i], ws[i] * shares[b]
                j += 1
    return bags, out_rows, out_ws, offsets


@njit(cache=True, nogil=True)
def branch_errors(node, rows, ws, t, d, est):
    """The estimate if all of ``rows`` went down the subtree at ``node`` (``_Pruner.branch_errors``):
    each split node adds its branches' estimates in order. Depth first with a stack of frames
    (node, its next branch, its sum so far, its branches' cases), no recursion."""
    if t.attr[node] < 0:
        return errors(class_counts(rows, ws, d.y, d.n_classes), est)
    _, parts, part_ws, offsets = split(node, rows, ws, t, d)
    nodes, nexts, sums = [node], [0], [0.0]
    cases, weights, bounds = [parts], [part_ws], [offsets]
    while True:
        k = len(nodes) - 1
        at, b = nodes[k], nexts[k]
        if b < t.nb[at]:
            nexts[k] = b + 1
            child = t.cstart[at] + b
            lo, hi = bounds[k][b], bounds[k][b + 1]
            if t.attr[child] < 0:
                sums[k] += errors(class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes), est)
            else:
                _, parts, part_ws, offsets = split(child, cases[k][lo:hi], weights[k][lo:hi], t, d)
                nodes.append(child)
                nexts.append(0)
                sums.append(0.0)
                cases.append(parts)
                weights.append(part_ws)
                bounds.append(offsets)
            continue
        value = sums.pop()
        nodes.pop()
        nexts.pop()
        cases.pop()
        weights.pop()
        bounds.pop()
        if len(nodes) == 0:
            return value
        sums[len(sums) - 1] += value


@njit(cache=True, nogil=True)
def redistribute(node, rows, ws, t, d, rec):
    """Send ``rows`` down the subtree at ``node``, renewing its distributions (J48's newDistribution),
    depth first with a stack of frames (node, its next branch, its branches' cases)."""
    rec.dcounts[node] = class_counts(rows, ws, d.y, d.n_classes)
    if t.attr[node] < 0:
        return 0
    bags, parts, part_ws, offsets = split(node, rows, ws, t, d)
    rec.bags3[node, : t.nb[node]] = bags
    nodes, nexts = [node], [0]
    cases, weights, bounds = [parts], [part_ws], [offsets]
    while len(nodes) > 0:
        k = len(nodes) - 1
        at, b = nodes[k], nexts[k]
        if b == t.nb[at]:
            nodes.pop()
            nexts.pop()
            cases.pop()
            weights.pop()
            bounds.pop()
            continue
        nexts[k] = b + 1
        child = t.cstart[at] + b
        lo, hi = bounds[k][b], bounds[k][b + 1]
        rec.dcounts[child] = class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes)
        if t.attr[child] >= 0:
            bags, parts, part_ws, offsets = split(child, cases[k][lo:hi], weights[k][lo:hi], t, d)
            rec.bags3[child, : t.nb[child]] = bags
            nodes.append(child)
            nexts.append(0)
            cases.append(parts)
            weights.append(part_ws)
            bounds.append(offsets)
    return 0


@njit(cache=True, nogil=True)
def _max_bag(bags, nb):
    best, top = -1, 0.0
    for b in range(nb):
        size = 0.0
        for c in range(bags.shape[1]):
            size += bags[b, c]
        if top - size < SMALL:
            best, top = b, size
    return best


@njit(cache=True, nogil=True)
def prune(top, rows, ws, entry, t, d, est, rec):
    """``_Pruner.prune`` below ``top`` whose cases are ``rows``/``ws`` (their class weights are in
    ``rec.dcounts[top]`` already): bottom-up, each node decided once its branches are, a node
    whose largest branch was raised pruned again. Depth first with a stack of frames (node, its
    cases, its path entry, its next branch, its branches' cases). A node's estimate (E(tree);
    E(leaf) once a leaf) goes to ``rec.estimate`` for its parent to add up. Returns 1 if the step
    or entry buffers ran out."""
    if t.attr[top] < 0:
        return 0
    bags, parts, part_ws, offsets = split(top, rows, ws, t, d)
    rec.bags3[top, : t.nb[top]] = bags
    nodes, entries, nexts = [top], [entry], [0]
    own, own_ws = [rows], [ws]
    cases, weights, bounds = [parts], [part_ws], [offsets]
    while len(nodes) > 0:
        k = len(nodes) - 1
        node, b = nodes[k], nexts[k]
        if b < t.nb[node]:  # prune the next branch, one path entry a branch
            nexts[k] = b + 1
            child = t.cstart[node] + b
            lo, hi = bounds[k][b], bounds[k][b + 1]
            rec.dcounts[child] = class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes)
            e = rec.counters[1]
            if e >= rec.entries_i.shape[0]:
                return 1
            rec.counters[1] += 1
            rec.entries_i[e, 0], rec.entries_i[e, 1], rec.entries_i[e, 2] = entries[k], t.src[node], b
            if t.attr[child] < 0:
                rec.estimate[child] = errors(rec.dcounts[child], est)
                continue
            bags, parts, part_ws, offsets = split(child, cases[k][lo:hi], weights[k][lo:hi], t, d)
            rec.bags3[child, : t.nb[child]] = bags
            nodes.append(child)
            entries.append(e)
            nexts.append(0)
            own.append(cases[k][lo:hi])
            own_ws.append(weights[k][lo:hi])
            cases.append(parts)
            weights.append(part_ws)
            bounds.append(offsets)
            continue
        action = decide(node, own[k], own_ws[k], entries[k], t, d, est, rec)
        if action < 0:
            return 1
        if action == RAISE and t.attr[node] >= 0:  # prune the node again: its new branches first
            bags, parts, part_ws, offsets = split(node, own[k], own_ws[k], t, d)
            rec.bags3[node, : t.nb[node]] = bags
            nexts[k] = 0
            cases[k], weights[k], bounds[k] = parts, part_ws, offsets
            continue
        if action == RAISE:  # a leaf was raised: the node is that leaf, its cases redistributed
            rec.estimate[node] = errors(rec.dcounts[node], est)
        nodes.pop()
        entries.pop()
        nexts.pop()
        own.pop()
        own_ws.pop()
        cases.pop()
        weights.pop()
        bounds.pop()
    return 0


@njit(cache=True, nogil=True)
def decide(node, rows, ws, entry, t, d, est, rec):
    """Leaf, raise or keep ``node``, its branches pruned; its step is recorded. Returns the action
    (-1 if the step buffer ran out)."""
    nb = t.nb[node]
    largest = _max_bag(rec.bags3[node], nb)
    branch = np.nan
    if est.raising:
        branch = branch_errors(t.cstart[node] + largest, rows, ws, t, d, est)
    leaf = errors(rec.dcounts[node], est)
    tree = 0.0
    for b in range(nb):
        tree += rec.estimate[t.cstart[node] + b]
    s = rec.counters[0]
    if s >= rec.steps_i.shape[0]:
        return -1
    rec.counters[0] += 1
    cases = 0.0
    for i in range(ws.shape[0]):
        cases += ws[i]
    rec.steps_i[s, 0], rec.steps_i[s, 1], rec.steps_i[s, 3], rec.steps_i[s, 4] = node, entry, largest, t.src[node]
    rec.steps_f[s, 0], rec.steps_f[s, 1], rec.steps_f[s, 2], rec.steps_f[s, 3] = cases, leaf, tree, branch
    if leaf - (tree + 0.1) < SMALL and (not est.raising or leaf - (branch + 0.1) < SMALL):
        rec.steps_i[s, 2] = LEAF
        t.attr[node] = -1
        rec.estimate[node] = leaf
        return LEAF
    if est.raising and branch - (tree + 0.1) < SMALL:
        rec.steps_i[s, 2] = RAISE
        raised = t.cstart[node] + largest
        t.attr[node], t.thr[node], t.nb[node] = t.attr[raised], t.thr[raised], t.nb[raised]
        t.cstart[node], t.src[node] = t.cstart[raised], t.src[raised]
        redistribute(node, rows, ws, t, d, rec)
        return RAISE
    rec.steps_i[s, 2] = KEEP
    rec.estimate[node] = tree
    return KEEP
