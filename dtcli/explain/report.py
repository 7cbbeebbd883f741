"""The numbers behind a split choice: one row per attribute (``dtree gain``).

For each attribute: the class counts of each branch, the weighted entropy
after the split, information gain, split information, gain ratio and Gini
gain. A nominal attribute splits one branch per value; a numeric one in two
at its best cut (highest gain; Mitchell §3.7.2), every candidate cut being
listed on request. Cases with a missing value are handled as C4.5 does
(Quinlan 1993): the gain is computed on the cases whose value is known and
multiplied by their share of the weight; split information counts the
missing cases as one more branch.
"""

from __future__ import annotations

from functools import cmp_to_key

import numpy as np

from dtcli.explain.figures import (
    ONE_CLASS,
    AttributeReport,
    CutReport,
    GainReport,
    attribute_figures,
    cut_branches,
    denoise,
    mark_eligible,
    one_class,
)
from dtcli.induction.criteria.constants import GAIN_TOLERANCE
from dtcli.induction.criteria.impurity import entropy, gini, weighted_impurity
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.search.choice import best_first, choose, near_ties
from dtcli.induction.search.numeric import boundary_cut, boundary_mask, cut_table, plain_gains
from dtcli.induction.search.split import Candidate, nominal_branch_counts, score_split
from dtcli.model.table import Table


def attribute_report(
    table: Table, rows: np.ndarray, i: int, place=None, all_cuts: bool = False
) -> AttributeReport | None:
    """Split statistics for attribute ``i`` over ``rows`` (None: a numeric one with no cut).

    ``place(i, midpoint, lower)`` gives a numeric threshold its final position
    (default: the midpoint; ``lower``: the cut's lower value).
    """
    attribute = table.attributes[i]
    column, y, weights = table.columns[i][rows], table.y[rows], table.weights[rows]
    n_classes = len(table.classes)
    total = float(weights.sum())
    missing = float(weights[table.missing_mask(i)[rows]].sum())
    threshold, cuts = None, []
    if attribute.is_nominal:
        counts = nominal_branch_counts(column, y, weights, len(attribute.values), n_classes)
        values = attribute.values
    else:
        table_of_cuts = cut_table(column, y, weights, n_classes)
        cut = boundary_cut(table_of_cuts)
        if cut is None:
            return None
        threshold = place(i, cut.threshold, cut.lower) if place else cut.threshold
        counts = cut.branch_counts
        values = cut_branches(threshold, attribute.time)
        if all_cuts:
            cuts = _cut_reports(table_of_cuts, i, place)
    gain, ratio = score_split(counts, total, "gain-ratio")
    figures = attribute_figures(
        attribute.name,
        i,
        values,
        counts,
        missing,
        weighted_impurity(counts, entropy),
        gain,
        entropy(np.append(counts.sum(axis=1), missing)),
        ratio,
        score_split(counts, total, "gini")[1],
        threshold,
        cuts,
    )
    figures.time = attribute.time
    return figures


def _cut_reports(cuts, i: int, place) -> list[CutReport]:
    gains = plain_gains(cuts)
    share = cuts.known.sum() / cuts.total if cuts.total > 0 else 0.0
    boundaries = boundary_mask(cuts)
    reports = []
    for k in range(cuts.n):
        lower = float(cuts.lower[k])
        middle = midpoint(lower, float(cuts.upper[k]))
        reports.append(
            CutReport(
                threshold=place(i, middle, lower) if place else middle,
                lower=float(cuts.lower[k]),
                upper=float(cuts.upper[k]),
                counts=np.vstack([cuts.left[k], cuts.right[k]]),
                gain=denoise(float(gains[k]) * share),
                boundary=bool(boundaries[k]),
            )
        )
    return reports


def gain_report(
    table: Table,
    criterion: str = "gain",
    rows: np.ndarray | None = None,
    exclude: tuple[str, ...] = (),
    place=None,
    all_cuts: bool = False,
    costs=None,
) -> GainReport:
    """Score every attribute (but ``exclude``) over ``rows`` (default: all labelled rows).

    ``costs`` (an ``AttributeCosts``) adds each attribute's cost and its
    cost-sensitive score, which then sorts the table and picks the split.
    """
    labelled = table.labelled()
    rows = np.flatnonzero(labelled) if rows is None else rows[labelled[rows]]
    counts = np.bincount(table.y[rows], weights=table.weights[rows], minlength=len(table.classes))
    reports, skipped = [], []
    for i, attribute in enumerate(table.attributes):
        if attribute.name in exclude:
            continue
        report = attribute_report(table, rows, i, place, all_cuts)
        if report is None:
            reason = ONE_CLASS if one_class(counts) else "numeric with fewer than two distinct known values"
            skipped.append((attribute.name, reason))
            continue
        if costs is not None:
            report.cost = costs.cost(attribute.name)
            report.cost_score = costs.score(report.gain, report.cost)
        reports.append(report)
    pool = [
        Candidate(r.index, r.branch_counts, r.gain, r.cost_score if costs is not None else r.score(criterion))
        for r in reports
    ]
    order = sorted(range(len(pool)), key=cmp_to_key(lambda i, j: best_first(pool[i], pool[j])))
    reports = [reports[i] for i in order]
    rule = "gain" if costs is not None else criterion
    best = choose(pool, rule) if len(rows) and np.count_nonzero(counts) > 1 else None
    chosen = table.attributes[best.attribute].name if best is not None and best.gain > GAIN_TOLERANCE else None
    ties = [table.attributes[c.attribute].name for c in near_ties(pool, best)] if chosen else []
    report = GainReport(
        target=table.schema.target.name,
        classes=table.classes,
        counts=counts.astype(float),
        rows=len(rows),
        entropy=entropy(counts),
        gini=gini(counts),
        criterion=criterion,
        attributes=reports,
        chosen=chosen,
        ties=ties,
        skipped=skipped,
    )
    mark_eligible(report, pool)
    return report
