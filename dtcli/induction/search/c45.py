"""C4.5's split selection, as Weka's J48 implements Release 8 (Quinlan 1993).

Contract: ``c45_choose(node_rows, ...)`` returns the
chosen split at a node, or None for a leaf. Rules, in J48's terms:

- a node with less than ``2 m`` weight, or of one class, is a leaf;
- nominal attribute: one branch per value, admissible if at least two
  branches hold ``m`` cases; numeric: the best cut (``numeric.c45_cut``);
- gain is computed on the cases with a known value and scaled by their
  share of the weight; split information counts the unknown cases as one
  more branch;
- only attributes whose gain is at least the average gain (less 1e-3)
  compete on gain ratio; attributes with very many values (>= 0.3 of all
  training rows) stay out of the average unless every attribute is so;
- a score must beat the best so far by more than 1e-6 (ties: first column).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dtcli.induction.criteria.constants import eq, gr, gr_or_eq, sm, sm_or_eq
from dtcli.induction.criteria.scalar import ordered_sum
from dtcli.induction.search.batched import BATCH_CELLS, c45_cuts, nominal_block, nominal_scores
from dtcli.induction.search.numeric import Cut, c45_cut, cut_table, xlog2x
from dtcli.induction.search.split import nominal_branch_counts, score_split
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, NumericTest


@dataclass
class Choice:
    """A chosen split: its test, the score that chose it, and its information gain."""

    test: object
    score: float
    gain: float


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class C45Candidate:
    attribute: int
    test: object
    gain: float
    ratio: float
    counts: np.ndarray
    mdl: float = 0.0  # a numeric cut's MDL correction, already taken off ``gain``

    def gini(self, total: float) -> float:
        """The decrease in Gini index of the known cases times their share of the node's ``total``
        weight (``split.score_split``), as the gain is scaled (Quinlan 1993)."""
        return score_split(self.counts, total, "gini")[1]


def c45_gain(counts: np.ndarray, total: float) -> float:
    """J48's InfoGainSplitCrit: known share x (H(known) - H(branches)), 0 below 1e-6.

    Sums run in Weka's order: old = xlog2x(known) - the classes' terms;
    new = -(each branch's class terms, less the branch's own term, in turn).
    """
    return c45_scores(counts, total)[0]


def c45_scores(counts: np.ndarray, total: float, ratio: bool = False) -> tuple[float, float]:
    """(``c45_gain``, with ``ratio`` ``c45_gain_ratio`` too, else 0): ``batched.nominal_scores`` of
    this one attribute (every sum a running sum in Weka's order, every logarithm numpy's)."""
    c = np.asarray(counts, dtype=np.float64)
    gains, ratios = nominal_scores(c.reshape(1, *c.shape), total)
    return gains[0], ratios[0] if ratio else 0.0


def c45_gain_ratio(counts: np.ndarray, total: float, gain: float) -> float:
    """Gain over split information, the unknown cases counting as one more branch."""
    _, sizes, known = _branches(counts)
    return _ratio(sizes, known, total, gain)


def _ratio(sizes: list, known: float, total: float, gain: float, terms: list | None = None) -> float:
    """``c45_gain_ratio`` from the branches' weights (``terms``: their ``xlog2x``, then the unknown
    weight's and the total's, when already made)."""
    if not gr(known, 0.0):
        return 0.0
    terms = _xlog2x([*sizes, total - known, total]) if terms is None else terms
    split = -ordered_sum(terms[:-2]) - terms[-2] + terms[-1]
    if eq(split, 0.0):
        return 0.0
    return gain / (split / total)


def _branches(counts: np.ndarray) -> tuple[list, list, float]:
    """(each branch's class weights, each branch's weight, their sum) as Python floats, every sum
    in order (as ``seqsum``: the same additions, without a numpy call for each)."""
    rows = np.asarray(counts, dtype=np.float64).tolist()
    sizes = [ordered_sum(row) if row else 0.0 for row in rows]
    return rows, sizes, ordered_sum(sizes) if sizes else 0.0


def _xlog2x(values: list) -> list:
    """``xlog2x`` of each value, in one numpy call (numpy's logarithm, as the array formulas use)."""
    return xlog2x(np.array(values, dtype=np.float64)).tolist()


def c45_candidate(
    table: Table,
    i: int,
    rows: np.ndarray,
    w: np.ndarray,
    min_leaf: float,
    thresholds: Thresholds,
    total: float | None = None,
    counts: np.ndarray | None = None,
) -> C45Candidate | None:
    """The C4.5 split on attribute ``i`` at a node, or None if it has no admissible split.

    ``total`` is the node's weight (default: the sum of ``w``; ``c45_choose`` passes the sum of
    the class weights, as the level-wise engine computes it); ``rows`` None: every row of ``table``;
    ``counts``: a nominal attribute's class weights per value, already counted (``batched.nominal_block``)."""
    attribute = table.attributes[i]
    n_classes = len(table.classes)
    total = float(w.sum()) if total is None else total
    if attribute.is_nominal:
        if counts is None:
            column, y = (table.columns[i], table.y) if rows is None else (table.columns[i][rows], table.y[rows])
            counts = nominal_branch_counts(column, y, w, len(attribute.values), n_classes)
        if gr_or_eq(counts.sum(axis=1), min_leaf).sum() < 2:
            return None
        gain, ratio = c45_scores(counts, total, ratio=True)
        return C45Candidate(i, NominalTest(attribute), gain, ratio, counts)
    column, y = (table.columns[i], table.y) if rows is None else (table.columns[i][rows], table.y[rows])
    cut = c45_cut(cut_table(column, y, w, n_classes, total=total), n_classes, min_leaf, mdl=thresholds.mdl)
    return numeric_candidate(table, i, cut, total, thresholds)


def numeric_candidate(
    table: Table, i: int, cut: Cut | None, total: float, thresholds: Thresholds
) -> C45Candidate | None:
    """The candidate of numeric attribute ``i`` whose best cut (``c45_cut``) is ``cut``."""
    if cut is None:
        return None
    test = NumericTest(table.attributes[i], cut.threshold)
    ratio = c45_gain_ratio(cut.branch_counts, total, cut.gain)
    mdl = math.log2(cut.n_candidates) / total if thresholds.mdl else 0.0
    return C45Candidate(i, test, cut.gain, ratio, cut.branch_counts, mdl)


def c45_choose(
    table: Table, min_leaf: float, criterion: str, thresholds: Thresholds, n_all: int, costs=None
) -> Choice | None:
    """J48's C45ModelSelection over every attribute of a node's rows (``table``).

    ``n_all`` is the number of rows in the whole training set (for the
    many-valued-attribute rule).
    """
    w = table.weights
    counts = np.bincount(table.y, weights=w, minlength=len(table.classes))
    total = float(counts.sum())
    if sm(total, 2 * min_leaf) or eq(total, counts.max()):
        return None
    found = c45_candidates(table, min_leaf, thresholds, total)
    if not found:
        return None
    if costs is not None:  # Mitchell 3.7.5: a cost measure of the gain replaces the criterion
        name = table.attributes
        return placed(
            _first_max(found, lambda c: costs.score(c.gain, costs.cost(name[c.attribute].name)), "cost"),
            thresholds,
            table,
        )
    if criterion in ("gain", "gini"):
        score = (lambda c: c.gain) if criterion == "gain" else (lambda c: c.gini(total))
        return placed(_first_max(found, score, criterion), thresholds, table)
    average = c45_average(found, table, n_all)
    if average is None:
        return None
    eligible = [c for c in found if c.gain >= average - 1e-3]
    return placed(_first_max(eligible, lambda c: c.ratio, "gain-ratio"), thresholds, table)


def c45_candidates(table: Table, min_leaf: float, thresholds: Thresholds, total: float) -> list[C45Candidate]:
    """``c45_candidate`` of every attribute of a node's rows (``table``) that has an admissible split,
    in column order, the attributes side by side: the nominal ones' counts in one pass and their scores
    in one set of array operations (``batched.nominal_block``, ``nominal_scores``), the numeric ones'
    cuts likewise (``batched.c45_cuts``): the same candidates, bit for bit."""
    w, n_classes = table.weights, len(table.classes)
    nominal = [i for i, a in enumerate(table.attributes) if a.is_nominal]
    numeric = [i for i, a in enumerate(table.attributes) if not a.is_nominal]
    found: dict[int, C45Candidate | None] = {}
    if nominal:
        values = [len(table.attributes[i].values) for i in nominal]
        if len(nominal) * max(values) * n_classes <= BATCH_CELLS:
            counts = nominal_block([table.columns[i] for i in nominal], values, table.y, w, n_classes)
            weights = counts.sum(axis=2)  # each branch's weight (each row as c45_candidate sums it)
            branches = (gr_or_eq(weights, min_leaf) & (np.arange(counts.shape[1]) < np.array(values)[:, None])).sum(1)
            gains, ratios = nominal_scores(counts, total)
            for j, i in enumerate(nominal):
                if branches[j] >= 2:
                    test = NominalTest(table.attributes[i])
                    found[i] = C45Candidate(i, test, gains[j], ratios[j], counts[j, : values[j]])
        else:  # very many values: one attribute at a time
            for i in nominal:
                found[i] = c45_candidate(table, i, None, w, min_leaf, thresholds, total)
    columns = [table.columns[i] for i in numeric]
    for i, cut in zip(numeric, c45_cuts(columns, table.y, w, n_classes, min_leaf, total, thresholds.mdl)):
        found[i] = numeric_candidate(table, i, cut, total, thresholds)
    return [c for i in range(len(table.attributes)) if (c := found.get(i)) is not None]


def c45_average(found: list[C45Candidate], table: Table, n_all: int) -> float | None:
    """The average gain of J48's rule (the candidates whose gain is at least it, less 1e-3, compete on
    gain ratio): over ``found`` but the nominal attributes with at least 0.3 ``n_all`` values, unless
    every attribute has as many; None when no candidate counts."""
    limit = 0.3 * n_all
    many_valued = [a.is_nominal and len(a.values) >= limit for a in table.attributes]
    counted = [c for c in found if all(many_valued) or not many_valued[c.attribute]]
    if not counted:
        return None
    return sum(c.gain for c in counted) / len(counted)


def _first_max(found: list[C45Candidate], score, criterion: str) -> Choice | None:
    best, best_score = None, 0.0
    for candidate in found:
        if gr(score(candidate), best_score):
            best, best_score = candidate, score(candidate)
    if best is None:
        return None
    return Choice(best.test, best_score, best.gain)


def placed(choice: Choice | None, thresholds: Thresholds, table: Table) -> Choice | None:
    """The choice with its numeric threshold moved to where ``thresholds`` puts it."""
    if choice is None or not isinstance(choice.test, NumericTest):
        return choice
    i = table.schema.index(choice.test.attribute.name)
    midpoint = choice.test.threshold
    with np.errstate(invalid="ignore"):
        below = table.columns[i][table.columns[i] <= midpoint]  # the cut's lower value: the largest here
    lower = float(below.max()) if len(below) else None
    return Choice(NumericTest(choice.test.attribute, thresholds.place(i, midpoint, lower)), choice.score, choice.gain)


class Thresholds:
    """Where a numeric test's threshold goes: the midpoint of the cut, or (``data``)
    the largest training value not above it, as C4.5 and J48 print it.

    For ``data``, J48 scans the training rows in order and takes a value if
    it is not above the midpoint (within 1e-6) and exceeds the one it holds
    by more than 1e-6; values within 1e-6 of each other therefore resolve
    by file order, and so they do here. That value may lie up to 1e-6 below
    the cut's ``lower`` value (J48 routes with the same tolerance; a model
    routes ``x <= t`` exactly): the threshold is never below ``lower``, so
    that the rows go down the branches the cut was scored with.
    """

    def __init__(self, table: Table, mode: str, mdl: bool = True):
        self.mode = mode
        self.mdl = mdl
        self._table = table

    def place(self, i: int, midpoint: float, lower: float | None = None) -> float:
        """The threshold of the cut of attribute ``i`` at ``midpoint`` whose lower value is ``lower``."""
        if self.mode == "midpoint":
            return midpoint
        column = self._table.columns[i]
        with np.errstate(invalid="ignore", over="ignore"):  # over: values near +-1.8e308
            eligible = sm_or_eq(column, midpoint)
            if not eligible.any():
                return midpoint
            top = column[eligible].max()
            held = -np.inf
            for value in column[eligible & (column >= top - 1e-4)]:  # in file order (>=: top itself
                if gr(value, held):  # even where 1e-4 is below its precision)
                    held = value
        return float(held) if lower is None else max(float(held), lower)
