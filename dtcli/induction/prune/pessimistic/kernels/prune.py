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

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.prune.pessimistic.kernels.cases import class_counts, gather, place

LEAF, RAISE, KEEP = 0, 1, 2


@kernel
def _put(branch_bags, node, t, bags):
    """The class weights of ``node``'s branches, each at the slot of the child it leads to:
    ``branch_bags[t.cstart[node] + b] = bags[b]``, written as loops (a slice assignment compiles
    numpy's shape checks and their messages: seconds of compiling)."""
    first = t.cstart[node]
    for b in range(t.nb[node]):
        for c in range(bags.shape[1]):
            branch_bags[first + b, c] = bags[b, c]


@kernel
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


@kernel
def _j48_one(n, cf, z):
    if n <= 1.5:
        return max(n - 1.0, 0.0)
    f = 1.5 / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - 1.0


@kernel
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


@kernel
def _r8_one(n, cf, coeff):
    if n <= 1.5:
        return 0.67 * (n - 1.0)
    pr = (1.5 + coeff / 2 + math.sqrt(coeff * (1.5 * (1 - 1.5 / n) + coeff / 4))) / (n + coeff)
    return n * pr - 1.0


@kernel
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


@kernel
def branch_errors(node, rows, ws, lo, hi, t, d, est):
    """The estimate if all of ``rows[lo:hi]`` went down the subtree at ``node`` (``_Pruner.branch_errors``):
    each split node adds its branches' estimates in order. Depth first with a stack of frames
    (node, its next branch, its sum so far, where its branches' cases are; ``cases.place``),
    no recursion; ``rows``/``ws`` are left as they are (whole arrays and a range: slices would
    make numba compile the walk for arrays of any layout, three times slower)."""
    if t.attr[node] < 0:
        return errors(class_counts(rows[lo:hi], ws[lo:hi], d.y, d.n_classes), est)
    _, held, held_ws, bounds, _ = place(node, rows, ws, lo, hi, t, d, False)
    nodes, nexts, sums = [node], [0], [0.0]
    cases, weights, runs = [held], [held_ws], [bounds]
    while True:
        k = len(nodes) - 1
        at, b = nodes[k], nexts[k]
        if b < t.nb[at]:
            nexts[k] = b + 1
            child = t.cstart[at] + b
            lo, hi = runs[k][b], runs[k][b + 1]
            if t.attr[child] < 0:
                sums[k] += errors(class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes), est)
            else:
                _, held, held_ws, bounds, _ = place(child, cases[k], weights[k], lo, hi, t, d, True)
                nodes.append(child)
                nexts.append(0)
                sums.append(0.0)
                cases.append(held)
                weights.append(held_ws)
                runs.append(bounds)
            continue
        value = sums.pop()
        nodes.pop()
        nexts.pop()
        cases.pop()
        weights.pop()
        runs.pop()
        if len(nodes) == 0:
            return value
        sums[len(sums) - 1] += value


@kernel
def redistribute(node, rows, ws, lo, hi, t, d, rec):
    """Send ``rows[lo:hi]`` down the subtree at ``node``, renewing its distributions (J48's newDistribution),
    depth first with a stack of frames (node, its next branch, where its branches' cases are);
    ``rows``/``ws`` are left as they are."""
    rec.dcounts[node] = class_counts(rows[lo:hi], ws[lo:hi], d.y, d.n_classes)
    if t.attr[node] < 0:
        return 0
    bags, held, held_ws, bounds, _ = place(node, rows, ws, lo, hi, t, d, False)
    _put(rec.branch_bags, node, t, bags)
    nodes, nexts = [node], [0]
    cases, weights, runs = [held], [held_ws], [bounds]
    while len(nodes) > 0:
        k = len(nodes) - 1
        at, b = nodes[k], nexts[k]
        if b == t.nb[at]:
            nodes.pop()
            nexts.pop()
            cases.pop()
            weights.pop()
            runs.pop()
            continue
        nexts[k] = b + 1
        child = t.cstart[at] + b
        lo, hi = runs[k][b], runs[k][b + 1]
        rec.dcounts[child] = class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes)
        if t.attr[child] >= 0:
            bags, held, held_ws, bounds, _ = place(child, cases[k], weights[k], lo, hi, t, d, True)
            _put(rec.branch_bags, child, t, bags)
            nodes.append(child)
            nexts.append(0)
            cases.append(held)
            weights.append(held_ws)
            runs.append(bounds)
    return 0


@kernel
def _max_bag(branch_bags, first, nb):
    """The heaviest of the ``nb`` branches whose class weights start at ``branch_bags[first]``."""
    best, top = -1, 0.0
    for b in range(nb):
        size = 0.0
        for c in range(branch_bags.shape[1]):
            size += branch_bags[first + b, c]
        if top - size < SMALL:
            best, top = b, size
    return best


@kernel
def prune(top, rows, ws, entry, t, d, est, rec):
    """``_Pruner.prune`` below ``top`` whose cases are ``rows``/``ws`` (ascending row numbers, their
    class weights in ``rec.dcounts[top]`` already; both arrays are reordered and put back):
    bottom-up, each node decided once its branches are, a node whose largest branch was raised
    pruned again. Depth first with a stack of frames (node, its path entry, its next branch,
    where its cases are, where its branches' cases are and whether they were split in place,
    see ``cases``). A node's estimate (E(tree); E(leaf) once a leaf) goes to ``rec.estimate``
    for its parent to add up. Returns 1 if the step or entry buffers ran out."""
    if t.attr[top] < 0:
        return 0
    bags, held, held_ws, bounds, in_place = place(top, rows, ws, 0, rows.shape[0], t, d, True)
    _put(rec.branch_bags, top, t, bags)
    nodes, entries, nexts = [top], [entry], [0]
    own, own_ws, los, his = [rows], [ws], [0], [rows.shape[0]]
    cases, weights, runs, placed = [held], [held_ws], [bounds], [in_place]
    while len(nodes) > 0:
        k = len(nodes) - 1
        node, b = nodes[k], nexts[k]
        if b < t.nb[node]:  # prune the next branch, one path entry a branch
            nexts[k] = b + 1
            child = t.cstart[node] + b
            lo, hi = runs[k][b], runs[k][b + 1]
            rec.dcounts[child] = class_counts(cases[k][lo:hi], weights[k][lo:hi], d.y, d.n_classes)
            e = rec.counters[1]
            if e >= rec.entries_i.shape[0]:
                return 1
            rec.counters[1] += 1
            rec.entries_i[e, 0], rec.entries_i[e, 1], rec.entries_i[e, 2] = entries[k], t.src[node], b
            if t.attr[child] < 0:
                rec.estimate[child] = errors(rec.dcounts[child], est)
                continue
            bags, held, held_ws, bounds, in_place = place(child, cases[k], weights[k], lo, hi, t, d, True)
            _put(rec.branch_bags, child, t, bags)
            nodes.append(child)
            entries.append(e)
            nexts.append(0)
            own.append(cases[k])
            own_ws.append(weights[k])
            los.append(lo)
            his.append(hi)
            cases.append(held)
            weights.append(held_ws)
            runs.append(bounds)
            placed.append(in_place)
            continue
        if placed[k]:  # the node's cases back in order for its decision
            gather(cases[k], weights[k], runs[k], t.nb[node])
        lo, hi = los[k], his[k]
        action = decide(node, own[k], own_ws[k], lo, hi, entries[k], t, d, est, rec)
        if action < 0:
            return 1
        if action == RAISE and t.attr[node] >= 0:  # prune the node again: its new branches first
            bags, held, held_ws, bounds, in_place = place(node, own[k], own_ws[k], lo, hi, t, d, True)
            _put(rec.branch_bags, node, t, bags)
            nexts[k] = 0
            cases[k], weights[k], runs[k], placed[k] = held, held_ws, bounds, in_place
            continue
        if action == RAISE:  # a leaf was raised: the node is that leaf, its cases redistributed
            rec.estimate[node] = errors(rec.dcounts[node], est)
        nodes.pop()
        entries.pop()
        nexts.pop()
        own.pop()
        own_ws.pop()
        los.pop()
        his.pop()
        cases.pop()
        weights.pop()
        runs.pop()
        placed.pop()
    return 0


@kernel
def decide(node, rows, ws, lo, hi, entry, t, d, est, rec):
    """Leaf, raise or keep ``node``, its branches pruned; its step is recorded. Returns the action
    (-1 if the step buffer ran out)."""
    nb = t.nb[node]
    largest = _max_bag(rec.branch_bags, t.cstart[node], nb)
    branch = np.nan
    if est.raising:
        branch = branch_errors(t.cstart[node] + largest, rows, ws, lo, hi, t, d, est)
    leaf = errors(rec.dcounts[node], est)
    tree = 0.0
    for b in range(nb):
        tree += rec.estimate[t.cstart[node] + b]
    s = rec.counters[0]
    if s >= rec.steps_i.shape[0]:
        return -1
    rec.counters[0] += 1
    cases = 0.0
    for i in range(lo, hi):
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
        redistribute(node, rows, ws, lo, hi, t, d, rec)
        return RAISE
    rec.steps_i[s, 2] = KEEP
    rec.estimate[node] = tree
    return KEEP
