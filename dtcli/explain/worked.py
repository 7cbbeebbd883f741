"""The worked computation behind ``dtree gain``, as data (``dtree gain --explain``).

``explain_gain`` turns a ``GainReport`` into a ``Derivation``: sections of
equations (``explain/terms.py``, written out by ``explain/formulas.py``), count
lines and sentences, laid out as Mitchell (1997, §3.4.2) lays out the
PlayTennis root: the set's counts and entropy, then per attribute each
branch with its entropy, the gain, split information, gain ratio and Gini;
for a numeric attribute the sorted values, every candidate cut (boundary
cuts marked, §3.7.2) and its gain; with missing values C4.5's known share
(Quinlan 1993); with costs the cost measure (§3.7.5). The last sentence
says which attribute is chosen and why. Renderers (``render/explain.py``)
write it as text, Markdown or LaTeX.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dtcli.explain import formulas as f
from dtcli.explain.figures import AttributeReport, GainReport
from dtcli.explain.terms import Call, Name, Section, SetName
from dtcli.induction.criteria.impurity import entropy, gini
from dtcli.model.dates import threshold_text
from dtcli.model.table import Table

MEASURE_NAMES = {"gain": "information gain", "gain-ratio": "gain ratio", "gini": "Gini gain"}


@dataclass
class Counts:
    """A line ``S_Weak = [6+, 2-]``: a set and its class counts."""

    name: SetName
    counts: np.ndarray


@dataclass
class Sorted:
    """A numeric attribute's known values in order, each with the class counts of its rows."""

    values: list
    counts: list
    time: str = ""  # a date attribute's format (model/dates.py)


@dataclass
class Derivation:
    """Everything ``--explain`` prints: a title, sections of (depth, item) lines, the choice."""

    title: str
    classes: tuple
    order: tuple
    digits: int
    sections: list[Section] = field(default_factory=list)
    choice: str = ""


def explain_gain(
    table: Table,
    rows: np.ndarray,
    report: GainReport,
    digits: int = 3,
    where: tuple = (),
    subscript: tuple = (),
    order: tuple | None = None,
    costs=None,
) -> Derivation:
    """The derivation of ``report`` (made with ``all_cuts=True``) over ``rows`` of ``table``.

    ``subscript`` names the node's set (``("Sunny",)`` gives ``S_Sunny``);
    ``order`` the class indices in the order terms are written.
    """
    order = tuple(range(len(report.classes))) if order is None else tuple(order)
    name = SetName(tuple(subscript))
    title = report.target + (f" where {' and '.join(where)}" if where else "")
    out = Derivation(title, report.classes, order, digits)
    out.sections.append(whole_set(report, name, where, digits, order))
    for row in sorted(report.attributes, key=lambda r: r.index):
        out.sections.append(_attribute(table, rows, report, row, name, digits, order, costs))
    out.choice = choice_sentence(report, digits, costs)
    return out


def whole_set(report: GainReport, name: SetName, where, digits: int, order) -> Section:
    rows = f"the {report.rows} rows" + (f" where {' and '.join(where)}" if where else "")
    return Section(
        "The set",
        [
            (0, f"{_set_text(name)}: {rows}, target {report.target}"),
            (0, Counts(name, report.counts)),
            (0, f.entropy_of(name, report.counts, digits, order)),
            (0, f.gini_of(name, report.counts, digits, order)),
        ],
    )


def _set_text(name: SetName) -> str:
    return "S" + ("_" + ",".join(name.parts) if name.parts else "")


def _attribute(table, rows, report, row: AttributeReport, name, digits, order, costs) -> Section:
    numeric = row.threshold is not None
    section = Section(f"{row.name} (numeric)" if numeric else row.name)
    lines = section.lines
    if numeric:
        lines.extend(_cuts(table, rows, report, row, name, digits))
    lines.extend(_split(report, row, name, digits, order))
    if costs is not None:
        lines.append((0, f.cost_of(name, row.name, row.gain, costs, digits)))
    return section


def _split(report: GainReport, row: AttributeReport, name: SetName, digits: int, order) -> list:
    """Branches with their entropy and Gini, then gain, split information, gain ratio, Gini gain."""
    counts = row.branch_counts
    sizes = counts.sum(axis=1)
    known_counts = counts.sum(axis=0)
    known = float(sizes.sum())
    total = float(report.counts.sum())
    share = f.known_share(known, total)
    lines = []
    parent = name
    if share is not None:
        parent = name.branch("known")
        lines.append((0, missing_sentence(row.name, row.missing, known, total)))
        lines += [(0, Counts(parent, known_counts)), (1, f.entropy_of(parent, known_counts, digits, order))]
        lines.append((1, f.gini_of(parent, known_counts, digits, order)))
    for value, branch in zip(row.values, counts):
        child = name.branch(value)
        lines += [(0, Counts(child, branch)), (1, f.entropy_of(child, branch, digits, order))]
        lines.append((1, f.gini_of(child, branch, digits, order)))
    attribute = Name(row.name)
    gain = f.gain_of(
        Call("Gain", (name, attribute)), entropy(known_counts), sizes, entropy(counts), known, share, digits
    )
    lines.append((0, gain))
    lines.append((0, f.split_info_of(Call("SplitInfo", (name, attribute)), sizes, row.missing, digits)))
    ratio = f.ratio_of(Call("GainRatio", (name, attribute)), row.gain, row.split_info, digits)
    lines.append(
        (
            0,
            ratio
            if ratio is not None
            else f"GainRatio({_set_text(name)}, {row.name}) is undefined: "
            "the split information is 0 (every case in one branch)",
        )
    )
    gini_form = f.gain_of(
        Call("GiniGain", (name, attribute)), gini(known_counts), sizes, gini(counts), known, share, digits
    )
    lines.append((0, gini_form))
    return lines


def missing_sentence(name: str, missing: float, known: float, total: float) -> str:
    """C4.5's known share F, said in words."""
    return (
        f"{name} is missing on {count_text(missing)} of {count_text(total)}: as C4.5 does, the gain is computed on "
        f"the {count_text(known)} with a known value and multiplied by F = {count_text(known)}/{count_text(total)}, "
        "their share; split information counts the missing ones as one more branch"
    )


def count_text(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.6g}"


def _cuts(table: Table, rows: np.ndarray, report: GainReport, row: AttributeReport, name, digits) -> list:
    """The sorted values with their classes, then every candidate cut with its gain."""
    column, y, w = table.columns[row.index][rows], table.y[rows], table.weights[rows]
    known = ~np.isnan(column)
    values, inverse = np.unique(column[known], return_inverse=True)
    per_value = np.zeros((len(values), len(report.classes)))
    np.add.at(per_value, (inverse, y[known]), w[known])
    ordered = Sorted(list(values), list(per_value), row.time)
    lines = [(0, "The known values in order, with their classes:"), (1, ordered)]
    lines.append((0, "Candidate cuts, between adjacent values (boundary: the class changes there, Mitchell 3.7.2):"))
    known_counts = row.branch_counts.sum(axis=0)
    n_known = float(known_counts.sum())
    share = f.known_share(n_known, float(report.counts.sum()))
    for cut in row.cuts:
        test = Name(f"{row.name} <= {threshold_text(cut.threshold, row.time)}")
        sizes = cut.counts.sum(axis=1)
        eq = f.gain_of(
            Call("Gain", (name, test)),
            entropy(known_counts),
            sizes,
            entropy(cut.counts),
            n_known,
            share,
            digits,
            remark="boundary" if cut.boundary else "",
        )
        lines.append((1, eq))
    lines.append(
        (
            0,
            f"Best cut: {row.name} <= {threshold_text(row.threshold, row.time)}, the boundary cut of highest gain; "
            "scored as a split in two:",
        )
    )
    return lines


def choice_sentence(report: GainReport, digits: int, costs=None) -> str:
    """Which attribute is chosen and why: highest score, column order on ties, gain ratio's filter."""
    measure = f"cost score {f.COST_FORMULAS[costs.measure]}" if costs else MEASURE_NAMES[report.criterion]
    if report.chosen is None:
        return "No attribute is chosen: none has a positive information gain here, so a tree makes this a leaf."
    row = next((r for r in report.attributes if r.name == report.chosen), None)
    if row is None:  # --attribute left the tree's choice out
        shown = ", ".join(r.name for r in sorted(report.attributes, key=lambda r: r.index))
        return (
            f"Chosen: {report.chosen}, by {measure} among all the attributes; it is not among "
            f"the ones written out here ({shown}), so the tree does not split on "
            f"{'it' if len(report.attributes) == 1 else 'any of them'} at this node."
        )
    score = row.cost_score if costs is not None else row.score(report.criterion)
    text = f"Chosen: {row.name}, the highest {measure} ({score:.{digits}f})"
    if report.average_gain is not None:
        passed = [r.name for r in sorted(report.attributes, key=lambda r: r.index) if r.eligible]
        text += (
            f" among the attributes whose gain is at least the average gain {report.average_gain:.{digits}f} "
            f"(Quinlan's rule){' (of those shown)' if report.partial else ''}: {', '.join(passed)}"
        )
    if report.ties:
        text += f"; {', '.join(report.ties)} {'ties' if len(report.ties) == 1 else 'tie'} with it to 12 decimals: "
        text += "the computed values decide, and on equal values the first in column order"
    return text + "."
