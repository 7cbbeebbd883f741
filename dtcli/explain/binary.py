"""CART's candidate splits at a node, each scored three ways (``dtree gain -a cart`` / ``--splits binary``).

Every binary split CART's search considers (``search/cart.py``; Breiman et
al. 1984; Zaki & Meira ch. 16): for a nominal attribute each subset
``A in V`` against its complement, each split once, all of them for up to
``SUBSET_LIMIT`` values present (else the ones CART's search tries); for a
numeric attribute each threshold ``A <= t`` between adjacent distinct
values. Each gets its information gain, Gini gain and Zaki's CART measure
(eq. 16.8, ``2 P_L P_R sum_c |P(c|L) - P(c|R)|``); with missing values each
is computed on the known cases and scaled by their share, as C4.5 and
``cart_choose`` do. The criterion picks: highest score, then column order,
then the first candidate in the order listed.

``dtree gain -a cart`` shows each attribute's best candidate by the criterion (its
``--thresholds-all`` every one): ``binary_report(..., every=False)`` scores all cuts of a
numeric attribute at once and builds only the kept ones, so a table of thousands of rows is
scored in a blink; the attribute the tree splits on keeps the candidate nearest the tree's own
cut (``near``), which ``star_choice`` then marks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcli.induction.criteria.impurity import entropy, gini
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.search.cart import SUBSET_LIMIT, decrease, subset_candidates
from dtcli.induction.search.numeric import cut_table
from dtcli.induction.search.split import nominal_branch_counts
from dtcli.model.dates import threshold_text
from dtcli.model.table import Table
from dtcli.model.value_text import value_set

CRITERIA = ("gain", "gini", "cart")
NOISE = 1e-12


@dataclass
class BinaryCandidate:
    """One binary split: ``counts`` row 0 is the side ``A in V`` (or ``A <= t``), row 1 the rest."""

    attribute: str
    index: int
    counts: np.ndarray
    missing: float
    total: float
    gain: float
    gini_gain: float
    cart: float
    values: tuple | None = None
    threshold: float | None = None
    time: str = ""  # a date attribute's format (model/dates.py)

    @property
    def kind(self) -> str:
        return "subset" if self.values is not None else "numeric"

    def label(self) -> str:
        """``Car in {Sports}`` or ``Age <= 22.5``."""
        if self.values is not None:
            return f"{self.attribute} in {value_set(self.values)}"
        return f"{self.attribute} <= {threshold_text(self.threshold, self.time)}"

    def score(self, criterion: str) -> float:
        return {"gain": self.gain, "gini": self.gini_gain, "cart": self.cart}[criterion]


@dataclass
class BinaryReport:
    """The node's statistics and every binary candidate, in column order then the order CART tries them."""

    target: str
    classes: tuple
    counts: np.ndarray
    rows: int
    entropy: float
    gini: float
    criterion: str
    candidates: list[BinaryCandidate]
    chosen: int | None
    skipped: list = field(default_factory=list)
    elsewhere: str | None = None  # with --attribute: the split chosen, on an attribute not shown
    elsewhere_attribute: str | None = None  # and that attribute
    path_note: str | None = None  # --where: why no node of the tree holds these rows (explain/tree_path.py)


def _scores(counts: np.ndarray, share: float) -> list[float]:
    """Gain, Gini gain and CART measure of a split, times the known share (rounding noise is 0)."""
    scores = [float(decrease(counts[:1], counts[1:], c)[0]) for c in CRITERIA]
    return [score * share if abs(score) > NOISE else 0.0 for score in scores]


def _candidate(table: Table, i: int, counts: np.ndarray, total: float, **test) -> BinaryCandidate:
    known = float(counts.sum())
    share = 1.0 if known >= total else known / total
    gain, gini_gain, cart = _scores(counts, share)
    name, time = table.attributes[i].name, table.attributes[i].time
    return BinaryCandidate(name, i, counts, total - known, total, gain, gini_gain, cart, **test, time=time)


def nominal_candidates(table: Table, rows: np.ndarray, i: int, total: float, criterion: str = "gini") -> list:
    attribute = table.attributes[i]
    n_classes = len(table.classes)
    counts = nominal_branch_counts(
        table.columns[i][rows], table.y[rows], table.weights[rows], len(attribute.values), n_classes
    )
    present = np.flatnonzero(counts.sum(axis=1) > 0)
    found = subset_candidates(counts[present], criterion, SUBSET_LIMIT)
    if found is None:
        return []
    out = []
    for mask in found[0]:
        inside = mask if mask.sum() <= (~mask).sum() else ~mask
        left = counts[present[inside]].sum(axis=0)
        pair = np.vstack([left, counts.sum(axis=0) - left])
        values = tuple(attribute.values[j] for j in sorted(present[inside]))
        out.append(_candidate(table, i, pair, total, values=values))
    return out


def numeric_candidates(
    table: Table, rows: np.ndarray, i: int, total: float, place=None, keep: str | None = None, near=None
) -> list:
    """The cuts of numeric attribute ``i`` over ``rows``, each scored (all at once, as ``_candidate``
    scores one: the same numbers to the bit); with ``keep`` (a criterion) only the best by it, the
    first of equals, or with ``near`` (a threshold) the one nearest it."""
    cuts = cut_table(table.columns[i][rows], table.y[rows], table.weights[rows], len(table.classes))
    if cuts.n == 0:
        return []
    known = np.concatenate([cuts.left, cuts.right], axis=1).sum(axis=1)
    share = np.where(known >= total, 1.0, known / total)
    scores = {}
    for c in CRITERIA:
        raw = decrease(cuts.left, cuts.right, c)
        scores[c] = np.where(np.abs(raw) > NOISE, raw * share, 0.0)
    thresholds = []
    for k in range(cuts.n):
        lower, upper = float(cuts.lower[k]), float(cuts.upper[k])
        middle = midpoint(lower, upper)
        thresholds.append(place(i, middle, lower) if place else middle)
    if near is not None:
        taken = [int(np.argmin(np.abs(np.asarray(thresholds) - near)))]
    elif keep is not None:
        taken = [int(np.argmax(scores[keep]))]  # (the first of equal scores)
    else:
        taken = range(cuts.n)
    name, time = table.attributes[i].name, table.attributes[i].time
    return [
        BinaryCandidate(
            name,
            i,
            np.vstack([cuts.left[k], cuts.right[k]]),
            total - float(known[k]),
            total,
            float(scores["gain"][k]),
            float(scores["gini"][k]),
            float(scores["cart"][k]),
            threshold=thresholds[k],
            time=time,
        )
        for k in taken
    ]


def binary_report(
    table: Table,
    criterion: str = "gini",
    rows: np.ndarray | None = None,
    exclude: tuple = (),
    place=None,
    every: bool = True,
    near: tuple | None = None,
) -> BinaryReport:
    """Every binary candidate over ``rows`` (default: all labelled rows), scored; the criterion's best chosen.
    ``every=False``: each attribute's best candidate only, and for ``near`` = (attribute index,
    threshold or None) that attribute's candidate nearest the threshold (or all its subsets)."""
    labelled = table.labelled()
    rows = np.flatnonzero(labelled) if rows is None else rows[labelled[rows]]
    counts = np.bincount(table.y[rows], weights=table.weights[rows], minlength=len(table.classes)).astype(float)
    total = float(counts.sum())
    found, skipped = [], []
    for i, attribute in enumerate(table.attributes):
        if attribute.name in exclude:
            continue
        if attribute.is_nominal:
            more = nominal_candidates(table, rows, i, total, criterion)
            if not every and more and not (near is not None and near[0] == i):
                best = max(range(len(more)), key=lambda k: (more[k].score(criterion), -k))
                more = [more[best]]
        elif every:
            more = numeric_candidates(table, rows, i, total, place)
        else:
            at = near[1] if near is not None and near[0] == i else None
            more = numeric_candidates(table, rows, i, total, place, keep=criterion, near=at)
        if not more:
            skipped.append((attribute.name, "fewer than two distinct known values"))
        found += more
    chosen, best = None, NOISE
    if np.count_nonzero(counts) > 1:
        for k, candidate in enumerate(found):
            if candidate.score(criterion) > best:
                chosen, best = k, candidate.score(criterion)
    return BinaryReport(
        target=table.schema.target.name,
        classes=table.classes,
        counts=counts,
        rows=len(rows),
        entropy=entropy(counts),
        gini=gini(counts),
        criterion=criterion,
        candidates=found,
        chosen=chosen,
        skipped=skipped,
    )


def star_choice(report: BinaryReport, choice, table: Table, rows: np.ndarray) -> None:
    """Mark the split the tree grower made (``grow.grower.node_choice``'s ``choice`` over ``rows`` of
    ``table``; None: a leaf) as the report's choice: the candidate on the same attribute with the same
    subset (or its complement among the values present) or the nearest threshold, which then takes
    the tree's threshold (CART compares in single precision)."""
    report.chosen = None
    if choice is None:
        return
    test = choice.test
    i = table.schema.index(test.attribute.name)
    same = [k for k, c in enumerate(report.candidates) if c.index == i]
    if getattr(test, "kind", "") == "subset":
        codes = table.columns[i][rows]
        seen = np.bincount(codes[codes >= 0].astype(np.int64), minlength=len(test.attribute.values))
        present = {test.attribute.values[int(c)] for c in np.flatnonzero(seen)}
        inside = set(test.values) & present
        for k in same:
            values = set(report.candidates[k].values or ())
            if values in (inside, present - inside):
                report.chosen = k
                return
        return
    numeric = [k for k in same if report.candidates[k].threshold is not None]
    if numeric:
        k = min(numeric, key=lambda k: abs(report.candidates[k].threshold - test.threshold))
        report.candidates[k].threshold = float(test.threshold)
        report.chosen = k
