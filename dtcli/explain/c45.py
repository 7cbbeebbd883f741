"""``dtree gain -a c45``: every attribute scored as J48 scores it at a node, and the split J48 makes there.

Each attribute's row is its C4.5 candidate (``search/c45.py``, the code the
tree's growers call): a nominal attribute one branch per value, admissible
when two branches hold ``--min-leaf`` cases; a numeric one at J48's cut
(the best gain with enough cases each side, less the MDL correction
``log2(admissible cuts) / weight``), its threshold the largest training value
not above the cut, as J48 prints it. Gains are computed on the known cases
and scaled by their share; split information counts the unknown cases as a
branch. With gain ratio, only attributes whose gain is at least the average
gain (less 1e-3) compete, the average leaving out nominal attributes with
very many values (``c45_average``). The attribute chosen is the grower's own
decision (``grow.grower.node_choice``), so the table cannot disagree with the tree.
"""

from __future__ import annotations

import math
from functools import cmp_to_key

import numpy as np

from dtcli.explain.figures import ONE_CLASS, GainReport, attribute_figures, cut_branches, one_class
from dtcli.induction.criteria.impurity import entropy, gini, weighted_impurity
from dtcli.induction.grow.grower import node_choice
from dtcli.induction.params import GrowParams
from dtcli.induction.search.c45 import Choice, Thresholds, c45_average, c45_candidate, placed
from dtcli.induction.search.choice import best_first, near_ties
from dtcli.induction.search.numeric import c45_cut, cut_table
from dtcli.induction.search.split import Candidate, score_split
from dtcli.model.number_text import format_threshold
from dtcli.model.table import Table

SLACK = 1e-3  # J48 compares a gain with the average gain less this


def c45_report(table: Table, rows: np.ndarray, params: GrowParams, exclude: tuple[str, ...] = ()) -> GainReport:
    """Score every attribute of ``table`` over ``rows`` (labelled rows) as J48 does; the tree's choice
    is chosen. ``exclude`` are attributes not scored (tested above the node with ``=``)."""
    node = table.take(rows)
    weights = node.weights
    counts = np.bincount(node.y, weights=weights, minlength=len(table.classes))
    total = float(counts.sum())
    thresholds = Thresholds(table, params.thresholds or "data")
    min_leaf = params.min_leaf or 2.0
    everything = np.arange(node.n_rows)
    found, reports, skipped = [], [], []
    for i, attribute in enumerate(table.attributes):
        if attribute.name in exclude:
            continue
        candidate = c45_candidate(node, i, everything, weights, min_leaf, thresholds, total)
        if candidate is None:
            skipped.append((attribute.name, _reason(node, i, weights, min_leaf, thresholds, total)))
            continue
        found.append(candidate)
        reports.append(_row(node, candidate, total, thresholds))
    score = {"gain-ratio": "gain_ratio", "gain": "gain", "gini": "gini_gain"}[params.criterion]
    pool = [Candidate(r.index, r.branch_counts, r.gain, getattr(r, score)) for r in reports]
    order = sorted(range(len(pool)), key=cmp_to_key(lambda i, j: best_first(pool[i], pool[j])))
    reports = [reports[i] for i in order]
    available = [i for i, a in enumerate(table.attributes) if a.name not in exclude]
    choice = node_choice(table, rows, params, available)
    chosen = choice.test.attribute.name if choice is not None else None
    best = next((c for c in pool if table.attributes[c.attribute].name == chosen), None)
    report = GainReport(
        target=table.schema.target.name,
        classes=table.classes,
        counts=counts.astype(float),
        rows=len(rows),
        entropy=entropy(counts),
        gini=gini(counts),
        criterion=params.criterion,
        attributes=reports,
        chosen=chosen,
        ties=[table.attributes[c.attribute].name for c in near_ties(pool, best)] if best is not None else [],
        skipped=skipped,
        algorithm="c45",
    )
    if params.criterion == "gain-ratio" and found:
        average = c45_average(found, table, table.n_rows)
        report.average_gain = average
        for row in reports:
            row.eligible = average is not None and row.gain >= average - SLACK
        report.ties = [name for name in report.ties if next(r for r in reports if r.name == name).eligible]
    return report


def _row(node: Table, candidate, total: float, thresholds: Thresholds):
    """An attribute's row of the table from its C4.5 candidate."""
    attribute = node.attributes[candidate.attribute]
    counts = candidate.counts
    missing = total - float(counts.sum())
    threshold = None
    if attribute.is_nominal:
        values = attribute.values
    else:
        shown = placed(Choice(candidate.test, candidate.ratio, candidate.gain), thresholds, node)
        threshold = shown.test.threshold
        values = cut_branches(threshold, attribute.time)
    row = attribute_figures(
        attribute.name,
        candidate.attribute,
        values,
        counts,
        max(missing, 0.0),
        weighted_impurity(counts, entropy),
        candidate.gain,
        entropy(np.append(counts.sum(axis=1), missing) if missing > 0 else counts.sum(axis=1)),
        candidate.ratio,
        score_split(counts, total, "gini")[1],
        threshold,
        [],
    )
    row.mdl = candidate.mdl if not attribute.is_nominal else None
    row.time = attribute.time
    return row


def _reason(node: Table, i: int, weights, min_leaf: float, thresholds: Thresholds, total: float) -> str:
    """Why attribute ``i`` has no C4.5 split at the node (a numeric one: its best cut, if any, and MDL)."""
    if node.attributes[i].is_nominal:
        return f"fewer than two branches with at least {min_leaf:g} cases (--min-leaf)"
    n_classes = len(node.classes)
    cut = c45_cut(cut_table(node.columns[i], node.y, weights, n_classes, total=total), n_classes, min_leaf, mdl=False)
    if cut is None:
        if one_class(node.class_counts()):
            return ONE_CLASS
        return f"no cut with at least {min_leaf:g} known cases each side (--min-leaf)"
    mdl = math.log2(cut.n_candidates) / total
    threshold = format_threshold(thresholds.place(i, cut.threshold, cut.lower))
    return (
        f"its best cut, <= {threshold}, gains {cut.gain:.3f}, not more than its MDL correction "
        f"log2({cut.n_candidates})/{total:g} = {mdl:.3f} (J48)"
    )
