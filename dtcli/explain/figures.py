"""The figures of ``dtree gain``'s report: the whole set's, and each attribute's and cut's.

``explain/report.py`` computes them with numpy; ``plain/report.py`` computes the
very same numbers in plain Python for small files (``dtree gain`` then starts
without numpy). Class counts are numpy rows there and lists of floats here: the
renderers (``render/gain.py``) read either.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from dtcli.induction.search.choice import eligible
from dtcli.model.dates import threshold_text

Counts = Any  # a (branches, classes) matrix of weights: a numpy array or a list of lists of floats
NOISE = 1e-12
# why an attribute has no split at a node of one class (not a shortage of values or of cases: no cut
# separates classes there, and a tree makes the node a leaf whatever its attributes)
ONE_CLASS = "the node holds one class: no split separates it"


def one_class(counts) -> bool:
    """Whether class weights ``counts`` hold at most one class."""
    return sum(1 for c in counts if c > 0) <= 1


def denoise(value: float) -> float:
    """Rounding noise around zero (|x| < 1e-12) is zero: equal splits score exactly 0."""
    return 0.0 if abs(value) < NOISE else float(value)


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class AttributeReport:
    """The split statistics of one attribute at a node."""

    name: str
    index: int
    values: tuple[str, ...]
    branch_counts: Counts
    missing: float
    weighted_entropy: float
    gain: float
    split_info: float
    gain_ratio: float
    gini_gain: float
    threshold: float | None = None
    cuts: list[CutReport] = field(default_factory=list)
    cost: float | None = None
    cost_score: float | None = None
    mdl: float | None = None  # C4.5: a numeric cut's MDL correction, taken off ``gain``
    eligible: bool | None = None  # gain ratio: whether the gain reaches the average (Quinlan's rule)
    time: str = ""  # a date attribute's format (model/dates.py)

    def score(self, criterion: str) -> float:
        return {"gain": self.gain, "gain-ratio": self.gain_ratio, "gini": self.gini_gain}[criterion]


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class CutReport:
    """One candidate cut of a numeric attribute: between ``lower`` and ``upper``."""

    threshold: float
    lower: float
    upper: float
    counts: Counts
    gain: float
    boundary: bool


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class GainReport:
    """Statistics of the whole set and of every candidate attribute, best first."""

    target: str
    classes: tuple[str, ...]
    counts: Counts
    rows: int
    entropy: float
    gini: float
    criterion: str
    attributes: list[AttributeReport]
    chosen: str | None
    ties: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    average_gain: float | None = None  # gain ratio: the average gain the eligible attributes reach
    algorithm: str = "id3"  # whose rules score the attributes: id3, c45 (or cart: explain/binary.py)
    partial: bool = False  # --attribute left some scored attributes out of the table
    path_note: str | None = None  # --where: why no node of the tree holds these rows (explain/tree_path.py)


def mark_eligible(report: GainReport, pool: list) -> None:
    """With gain ratio (and no costs), Quinlan's rule on ``report``: its average gain, and each row
    ``eligible`` or not (``pool``: the report's candidates, ``choice.choose``'s input)."""
    if report.criterion != "gain-ratio" or any(row.cost is not None for row in report.attributes):
        return
    average, passed = eligible(pool)
    report.average_gain = average
    indices = {c.attribute for c in passed}
    for row in report.attributes:
        row.eligible = row.index in indices


def cut_branches(threshold: float, time: str = "") -> tuple[str, str]:
    """A numeric attribute's two branches as the report names them, ``<= t`` and ``> t`` (Weka's digits)."""
    shown = threshold_text(threshold, time)
    return f"<= {shown}", f"> {shown}"


def attribute_figures(
    name, index, values, counts, missing, weighted_entropy, gain, split_info, ratio, gini_gain, threshold, cuts
) -> AttributeReport:
    """An attribute's row from its computed scores: rounding noise around zero made zero (``denoise``),
    an undefined gain ratio (-inf) kept as it is."""
    return AttributeReport(
        name=name,
        index=index,
        values=values,
        branch_counts=counts,
        missing=missing,
        weighted_entropy=weighted_entropy,
        gain=denoise(gain),
        split_info=split_info,
        gain_ratio=denoise(ratio) if math.isfinite(ratio) else ratio,
        gini_gain=denoise(gini_gain),
        threshold=threshold,
        cuts=cuts,
    )
