"""The worked computation of CART's binary candidates, as data (``dtree gain -a cart --explain``).

For every candidate of a ``BinaryReport`` (``explain/binary.py``): its two
sides ``S_L`` (``A in V`` or ``A <= t``) and ``S_R`` with their entropy and
Gini, then the information gain and Gini gain (Zaki & Meira eqs. 16.4 and
16.7) and the CART measure (eq. 16.8) written out; with missing values
scaled by the known share F (as C4.5). The last sentence names the split
chosen by the criterion and why.
"""

from __future__ import annotations

from dtcli.explain import formulas as f
from dtcli.explain.binary import BinaryCandidate, BinaryReport
from dtcli.explain.terms import Call, Name, Section, SetName
from dtcli.explain.worked import Counts, Derivation, missing_sentence, whole_set
from dtcli.induction.criteria.impurity import entropy, gini

MEASURE_NAMES = {"gain": "information gain", "gini": "Gini gain", "cart": "CART measure"}


def explain_binary(
    report: BinaryReport, digits: int = 3, where: tuple = (), subscript: tuple = (), order: tuple | None = None
) -> Derivation:
    """The derivation of every binary candidate of ``report``, grouped by attribute."""
    order = tuple(range(len(report.classes))) if order is None else tuple(order)
    name = SetName(tuple(subscript))
    title = report.target + (f" where {' and '.join(where)}" if where else "")
    out = Derivation(title, report.classes, order, digits)
    out.sections.append(whole_set(report, name, where, digits, order))
    sections: dict[str, Section] = {}
    for candidate in report.candidates:
        if candidate.attribute not in sections:
            sections[candidate.attribute] = Section(candidate.attribute)
            out.sections.append(sections[candidate.attribute])
        sections[candidate.attribute].lines.extend(_candidate(candidate, name, digits, order))
    out.choice = choice_sentence(report, digits)
    return out


def _candidate(candidate: BinaryCandidate, name: SetName, digits: int, order) -> list:
    counts = candidate.counts
    known_counts = counts.sum(axis=0)
    known = float(known_counts.sum())
    share = f.known_share(known, candidate.total)
    test = Name(candidate.label())
    left, right = name.branch("L"), name.branch("R")
    lines = [(0, f"{candidate.label()}: S_L the cases with {candidate.label()}, S_R the others")]
    if share is not None:
        lines.append((1, missing_sentence(candidate.attribute, candidate.missing, known, candidate.total)))
    for side, branch in ((left, counts[0]), (right, counts[1])):
        lines += [(1, Counts(side, branch)), (2, f.entropy_of(side, branch, digits, order))]
        lines.append((2, f.gini_of(side, branch, digits, order)))
    sizes = counts.sum(axis=1)
    lines.append(
        (1, f.gain_of(Call("Gain", (name, test)), entropy(known_counts), sizes, entropy(counts), known, share, digits))
    )
    lines.append(
        (1, f.gain_of(Call("GiniGain", (name, test)), gini(known_counts), sizes, gini(counts), known, share, digits))
    )
    lines.append((1, f.cart_measure_of(Call("CART", (left, right)), counts[0], counts[1], digits, share, order)))
    return lines


def choice_sentence(report: BinaryReport, digits: int) -> str:
    """The split chosen: highest score by the criterion, then column order, then the order listed."""
    measure = MEASURE_NAMES[report.criterion]
    if report.chosen is None and report.elsewhere is not None:
        return (
            f"Chosen: {report.elsewhere}, by {measure} among all the attributes; it is not among the "
            "splits written out here, so the tree makes none of them at this node."
        )
    if report.chosen is None:
        return f"No split is chosen: none has a positive {measure} here, so a tree makes this a leaf."
    best = report.candidates[report.chosen]
    score = best.score(report.criterion)
    text = f"Chosen: {best.label()}, the highest {measure} ({score:.{digits}f})"
    ties = [c.label() for c in report.candidates if c is not best and abs(c.score(report.criterion) - score) < 1e-12]
    if ties:
        text += (
            f"; {', '.join(ties)} {'ties' if len(ties) == 1 else 'tie'} with it, and the tree takes the first in "
            "its order of the attributes (scikit-learn's random order for --seed 0), then the first listed"
        )
    return text + "."
