"""``dtree gain``'s report in plain Python, for a small table: ``explain/report.py``'s numbers, to the bit.

Contract: ``plain_gain_report`` takes a ``PlainTable`` (every case weight 1)
and returns the ``GainReport`` that ``report.gain_report`` returns for the
same table, rows and options, computed without numpy. The formulas are the
reference's (``criteria/impurity.py``, ``search/numeric.py``,
``search/split.py``), step for step in the same order: counts of unit
weights are whole numbers, so every sum is exact in any order, and each
entropy and Gini is ``criteria/scalar.py``'s, the very function
``impurity.py`` applies to one vector. The one difference is the
logarithm: ``math.log`` here, numpy's there; ``cli/gain.py`` takes this path
only where numpy's logarithm is the C library's (``math.log``).
"""

from __future__ import annotations

import math
from functools import cmp_to_key
from typing import NamedTuple

from dtcli.explain.figures import (
    ONE_CLASS,
    CutReport,
    GainReport,
    attribute_figures,
    cut_branches,
    denoise,
    mark_eligible,
    one_class,
)
from dtcli.induction.criteria.constants import EQUAL_VALUES, GAIN_TOLERANCE, gr, sm_or_eq
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.criteria.scalar import entropy_of, gini_of, ordered_sum
from dtcli.induction.search.choice import best_first, choose, near_ties
from dtcli.model.where import NUMERIC_OPS
from dtcli.plain.table import PlainColumn, PlainTable


class Cuts(NamedTuple):
    """Every candidate cut of a numeric attribute at a node (``numeric.CutTable``, in lists)."""

    lower: list[float]
    upper: list[float]
    left: list[list[float]]
    right: list[list[float]]
    known: list[float]
    total: float


class Scored(NamedTuple):
    """An attribute's place in the choice (``split.Candidate``): column index, gain, score."""

    attribute: int
    gain: float
    score: float


class PlainThresholds:
    """``search.c45.Thresholds`` on a PlainTable: a cut's midpoint, or (``data``) the largest
    training value not above it, scanned in file order with Weka's 1e-6 tolerance."""

    def __init__(self, table: PlainTable, mode: str):
        self.mode = mode
        self._table = table

    def place(self, i: int, middle: float, lower: float | None = None) -> float:
        if self.mode == "midpoint":
            return middle
        column = self._table.attributes[i].cells
        eligible = [value for value in column if sm_or_eq(value, middle)]
        if not eligible:
            return middle
        top = max(eligible)
        held = -math.inf
        for value in eligible:  # in file order
            if value >= top - 1e-4 and gr(value, held):
                held = value
        return held if lower is None else max(held, lower)


def select_rows(table: PlainTable, conditions) -> list[int] | None:
    """The rows that satisfy every ``--where`` condition (``where.select``), or None where
    ``where.select`` raises an error (the full path then reports it)."""
    names = [a.name for a in table.attributes]
    rows = list(range(table.n_rows))
    for condition in conditions:
        if condition.name not in names:
            return None
        column = table.attributes[names.index(condition.name)]
        if column.is_nominal:
            if condition.op not in ("=", "!=") or condition.value not in column.values:
                return None
            code = column.values.index(condition.value)
            same = condition.op == "="
            rows = [r for r in rows if column.cells[r] >= 0 and (column.cells[r] == code) == same]
            continue
        try:
            value = float(condition.value)
        except ValueError:
            return None
        test = NUMERIC_OPS[condition.op]
        rows = [r for r in rows if test(column.cells[r], value) and column.cells[r] == column.cells[r]]
    return rows


def plain_gain_report(
    table: PlainTable, criterion: str, rows: list[int], exclude: tuple = (), place=None, all_cuts: bool = False
) -> GainReport:
    """Score every attribute (but ``exclude``) over the labelled ones of ``rows`` (``report.gain_report``)."""
    rows = [r for r in rows if table.y[r] >= 0]
    n_classes = len(table.classes)
    counts = [0.0] * n_classes
    for r in rows:
        counts[table.y[r]] += 1.0
    reports, skipped = [], []
    for i, attribute in enumerate(table.attributes):
        if attribute.name in exclude:
            continue
        report = _attribute_report(table, attribute, i, rows, place, all_cuts)
        if report is None:
            reason = ONE_CLASS if one_class(counts) else "numeric with fewer than two distinct known values"
            skipped.append((attribute.name, reason))
            continue
        reports.append(report)
    pool = [Scored(r.index, r.gain, r.score(criterion)) for r in reports]
    order = sorted(range(len(pool)), key=cmp_to_key(lambda i, j: best_first(pool[i], pool[j])))
    reports = [reports[i] for i in order]
    best = choose(pool, criterion) if rows and sum(1 for c in counts if c != 0) > 1 else None
    chosen = table.attributes[best.attribute].name if best is not None and best.gain > GAIN_TOLERANCE else None
    ties = [table.attributes[c.attribute].name for c in near_ties(pool, best)] if chosen else []
    report = GainReport(
        target=table.target,
        classes=table.classes,
        counts=counts,
        rows=len(rows),
        entropy=entropy_of(counts),
        gini=gini_of(counts),
        criterion=criterion,
        attributes=reports,
        chosen=chosen,
        ties=ties,
        skipped=skipped,
    )
    mark_eligible(report, pool)
    return report


def _attribute_report(table: PlainTable, attribute: PlainColumn, i: int, rows, place, all_cuts):
    n_classes = len(table.classes)
    cells, y = attribute.cells, table.y
    total = float(len(rows))
    threshold, cuts = None, []
    if attribute.is_nominal:
        counts = [[0.0] * n_classes for _ in attribute.values]
        missing = 0.0
        for r in rows:
            if cells[r] >= 0:
                counts[cells[r]][y[r]] += 1.0
            else:
                missing += 1.0
        values = attribute.values
    else:
        missing = float(sum(1 for r in rows if cells[r] != cells[r]))
        table_of_cuts = _cut_table([(cells[r], y[r]) for r in rows if cells[r] == cells[r]], n_classes, total)
        found = _boundary_cut(table_of_cuts)
        if found is None:
            return None
        k, _ = found
        lower = table_of_cuts.lower[k]
        threshold = midpoint(lower, table_of_cuts.upper[k])
        threshold = place(i, threshold, lower) if place else threshold
        counts = [table_of_cuts.left[k], table_of_cuts.right[k]]
        values = cut_branches(threshold)
        if all_cuts:
            cuts = _cut_reports(table_of_cuts, i, place)
    gain, ratio = _score_split(counts, total, "gain-ratio")
    return attribute_figures(
        attribute.name,
        i,
        values,
        counts,
        missing,
        _weighted(counts, entropy_of),
        gain,
        entropy_of([ordered_sum(row) for row in counts] + [missing]),
        ratio,
        _score_split(counts, total, "gini")[1],
        threshold,
        cuts,
    )


def _cut_table(known: list[tuple[float, int]], n_classes: int, total: float) -> Cuts:
    """``numeric.cut_table``: the known values sorted (stable), a cut between values more than
    ``EQUAL_VALUES`` apart, the class counts at or below each cut."""
    known.sort(key=lambda pair: pair[0])
    running = [0.0] * n_classes
    lower, upper, left = [], [], []
    for k, (value, label) in enumerate(known):
        running[label] += 1.0
        if k + 1 < len(known) and value + EQUAL_VALUES < known[k + 1][0]:
            lower.append(value)
            upper.append(known[k + 1][0])
            left.append(list(running))
    right = [[a - b for a, b in zip(running, side)] for side in left]
    return Cuts(lower, upper, left, right, running, total)


def _plain_gains(cuts: Cuts) -> list[float]:
    """``numeric.plain_gains``: information gain of every cut over the known rows."""
    before = entropy_of(cuts.known)
    gains = []
    for left, right in zip(cuts.left, cuts.right):
        n_left, n_right = sum(left), sum(right)  # (whole numbers: any order gives these)
        n = n_left + n_right
        gains.append(before - (n_left * entropy_of(left) + n_right * entropy_of(right)) / (n if n > 0 else 1.0))
    return gains


def _boundaries(cuts: Cuts) -> list[bool]:
    """``numeric.boundary_mask``: False where the values either side carry the same single class."""
    marks = []
    for k in range(len(cuts.left)):
        below = cuts.left[k] if k == 0 else [a - b for a, b in zip(cuts.left[k], cuts.left[k - 1])]
        above = (
            [a - b for a, b in zip(cuts.left[k + 1], cuts.left[k])]
            if k + 1 < len(cuts.left)
            else [a - b for a, b in zip(cuts.known, cuts.left[k])]
        )
        single = sum(1 for c in below if c > 0) == 1 and sum(1 for c in above if c > 0) == 1
        marks.append(not (single and below.index(max(below)) == above.index(max(above))))
    return marks


def _boundary_cut(cuts: Cuts) -> tuple[int, float] | None:
    """``numeric.boundary_cut``: (the cut, its gain) of highest gain where the class changes."""
    if not cuts.left:
        return None
    gains = _plain_gains(cuts)
    best = _first_best(gains, _boundaries(cuts))
    return None if best is None else (best, gains[best])


def _first_best(scores: list[float], eligible: list[bool], floor: float = 0.0) -> int | None:
    """``numeric.first_best``: Weka's scan, a score replacing the best only if it beats it by > 1e-6."""
    candidates = [i for i, score in enumerate(scores) if eligible[i] and gr(score, floor)]
    if not candidates:
        return None
    top = max(scores[i] for i in candidates)
    best, best_score = None, floor
    for i in candidates:
        if scores[i] > top - 1e-4 and gr(scores[i], best_score):
            best, best_score = i, scores[i]
    return best


def _cut_reports(cuts: Cuts, i: int, place) -> list[CutReport]:
    gains = _plain_gains(cuts)
    share = sum(cuts.known) / cuts.total if cuts.total > 0 else 0.0
    marks = _boundaries(cuts)
    reports = []
    for k, lower in enumerate(cuts.lower):
        middle = midpoint(lower, cuts.upper[k])
        reports.append(
            CutReport(
                threshold=place(i, middle, lower) if place else middle,
                lower=lower,
                upper=cuts.upper[k],
                counts=[cuts.left[k], cuts.right[k]],
                gain=denoise(gains[k] * share),
                boundary=marks[k],
            )
        )
    return reports


def _score_split(counts: list[list[float]], total: float, criterion: str) -> tuple[float, float]:
    """``split.score_split``: (gain, score) of a split whose known cases are ``counts``."""
    sizes = [ordered_sum(row) for row in counts]
    known = ordered_sum(sizes)
    share = known / total if total > 0 else 0.0
    gain = _information_gain(counts, sizes, known)
    if share != 1.0:
        gain *= share
    if criterion == "gini":
        return gain, (gini_of(_column_sums(counts)) - _weighted(counts, gini_of)) * share
    split_info = entropy_of(sizes + [total - known] if total > known else sizes)
    return gain, (gain / split_info if split_info > 0 else -math.inf)


def _information_gain(counts, sizes: list[float], known: float) -> float:
    """``impurity.information_gain``: the branch terms subtracted one by one, in value order."""
    gain = entropy_of(_column_sums(counts))
    for size, row in zip(sizes, counts):
        if size > 0:
            gain -= (size / known) * entropy_of(row)
    return gain


def _weighted(counts, impurity) -> float:
    """``impurity.weighted_impurity``: ``sum_v |S_v|/|S| I(S_v)``, branches in order."""
    sizes = [ordered_sum(row) for row in counts]
    total = ordered_sum(sizes)
    result = 0.0
    for size, row in zip(sizes, counts):
        if size > 0:
            result += (size / total) * impurity(row)
    return result


def _column_sums(counts) -> list[float]:
    return [ordered_sum(list(column)) for column in zip(*counts)]
