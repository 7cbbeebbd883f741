"""Chi-square pre-pruning in the level-wise engine (``--chi2-alpha``).

The per-node grower tests each chosen split (``grow.grower.Grower.significant``)
and makes the node a leaf when the association between its branches and the
classes is not significant. The engine does the same for a whole level at
once: the known cases' weights by node, branch and class come from one
``bincount`` over the level's records (grouped by node, in row order, so the
sums are the per-node ones), and each split node is tested with
``chisquare.chi_square``. The tests are recorded as ``ChiStep``s and put in
the per-node grower's order (depth first, first branch first) at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcli.induction.criteria.chisquare import ChiStep, chi_square
from dtcli.induction.grow.flat import FlatTree


@dataclass
class ChiTests:
    """The chi-square tests of a tree's splits at level ``alpha``; ``steps`` receives
    (depth, node, ChiStep) for each test."""

    alpha: float
    n_classes: int
    attributes: list
    steps: list = field(default_factory=list)


def chi_square_leaves(level, split: np.ndarray, branch: np.ndarray, recs, depth: int, tests: ChiTests) -> bool:
    """Test the level's splits (``split``: the nodes with a test; ``branch``: each record's branch,
    -1 missing; ``recs``: the level's records); a split that is not significant at ``tests.alpha``
    is undone (the node stays a leaf).
    Appends (depth, node, ChiStep) to ``tests.steps``; returns whether any split was undone."""

    n_classes, rec_node, rec_w = tests.n_classes, recs.node, recs.w
    widest = int(level.nb.max())
    known = branch >= 0
    index = (rec_node[known].astype(np.int64) * widest + branch[known]) * n_classes + recs.y[known]
    counts = np.bincount(index, weights=rec_w[known], minlength=len(level.nb) * widest * n_classes)
    counts = counts.reshape(len(level.nb), widest, n_classes)
    bounds = np.searchsorted(rec_node, np.arange(len(level.nb) + 1))  # records are grouped by node
    undone = False
    for node in split.tolist():
        statistic, df, p_value = chi_square(counts[node, : level.nb[node]])
        keep = p_value < tests.alpha
        cases = float(rec_w[bounds[node] : bounds[node + 1]].sum())
        name = tests.attributes[int(level.attr[node])].name
        tests.steps.append(
            (depth, node, ChiStep(depth, cases, name, statistic, df, p_value, "split" if keep else "leaf"))
        )
        if not keep:
            level.attr[node], level.nb[node], level.thr[node], level.score[node] = -1, 0, 0.0, np.nan
            undone = True
    return undone


def in_growth_order(flat: FlatTree, levels: list, steps: list, expanded: list | None = None) -> list:
    """The steps in the order the per-node grower tests nodes: depth first, first branch first;
    or, best first (``expanded``: the nodes split, in order), the root, then the children of
    each node split as it is split, last branch first (they are tested when queued)."""
    offsets = np.cumsum([0] + [len(level.labels) for level in levels])
    by_slot = {int(offsets[depth]) + node: step for depth, node, step in steps}
    cstart, nb = flat.cstart.tolist(), flat.nb.tolist()
    if expanded is not None:
        ordered = [by_slot[0]] if 0 in by_slot else []
        for slot in expanded:
            ordered.extend(by_slot[c] for c in reversed(range(cstart[slot], cstart[slot] + nb[slot])) if c in by_slot)
        return ordered
    attr = flat.attr.tolist()
    ordered, stack = [], [0]
    while stack:
        slot = stack.pop()
        if slot in by_slot:
            ordered.append(by_slot[slot])
        if attr[slot] >= 0:
            stack.extend(reversed(range(cstart[slot], cstart[slot] + nb[slot])))
    return ordered
