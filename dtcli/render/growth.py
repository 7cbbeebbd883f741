"""The growth trace (``train --trace``) as text or as the ``growth`` list of a ``dtree-trace`` document.

The nodes come in depth-first preorder: a node, then the subtree of each of its branches in
branch order (the order the per-node grower expands them; with --max-leaves it expands the
most promising node first, and each split says its turn). For each node: where it hangs,
the rows that reach it (1-based data rows, or the values of the --id column; at most
``ROWS_KEPT``, then how many), its class counts and impurity, the candidate splits with
their scores, then the split chosen and why, or the reason it stays a leaf. A path is
written with at most ``PATH_SHOWN`` conditions (``...`` before them when deeper), so the
trace grows linearly with the tree.
"""

from __future__ import annotations

import math

from dtcli.model.tree import NominalTest
from dtcli.render.counts import class_counts, number
from dtcli.render.printable import shown
from dtcli.render.tree import COST_NAMES

PATH_SHOWN = 6
DIGITS = 3
REASON_TEXT = {
    "pure": "pure (every case is of one class)",
    "no-attributes": "no attributes left",
    "min-split": "fewer cases than --min-split",
    "min-leaf": "--min-leaf cannot be met (no split leaves that many cases in two branches)",
    "max-depth": "--max-depth reached",
    "purity": "the majority class reaches the --purity threshold",
    "not-significant": "the split is not significant under chi-square (--chi2-alpha)",
    "zero-gain": "no split gains anything",
    "min-gain": "the best gain is not above --min-gain",
    "max-leaves": "the --max-leaves budget is spent",
    "no-split": "every attribute left has one value here",
    "empty": "empty branch, labelled with the parent's majority class",
}


def measure_name(parameters: dict, regression: bool = False) -> str:
    """What a split's score is called in prose: the cost measure with costs, else the criterion's name."""
    costs = parameters.get("costs")
    if costs and parameters.get("algorithm") != "cart":
        return COST_NAMES.get(costs.get("measure"), "cost measure")
    if regression:
        return "MSE decrease"
    criterion = parameters.get("criterion", "gain")
    if parameters.get("algorithm") == "cart":
        return {"gini": "Gini gain", "entropy": "gain", "cart": "CART measure"}.get(criterion, criterion)
    return {"gain": "gain", "gain-ratio": "gain ratio", "gini": "Gini gain"}.get(criterion, criterion)


def _label(measure: str) -> str:
    """The measure as a function name: Gain(S, A), GainRatio(S, A), GiniGain(S, A), Gain/Cost(S, A)."""
    if "/" in measure:
        return measure
    return "".join(word[:1].upper() + word[1:] for word in measure.split())


class Growth:
    """The steps of one growth with what naming them needs: the tree's classes and parameters,
    and (``ids``) the --id column's value of each row as read."""

    def __init__(self, steps, classes, parameters: dict, ids=None, regression: bool = False):
        self.steps = {s.id: s for s in steps}
        self.classes = classes
        self.parameters = parameters
        self.ids = ids
        self.regression = regression
        self.measure = measure_name(parameters, regression)
        self.tails = _tails(self.steps)
        self.order = list(self._preorder())
        self.number = {step.id: i + 1 for i, step in enumerate(self.order)}  # nodes numbered in preorder

    def preorder(self):
        """The steps, each node before its branches, branches in order."""
        return self.order

    def _preorder(self):
        """The steps in preorder, made with an explicit stack."""
        children: dict = {}
        roots = []
        for step in self.steps.values():
            if step.parent is None:
                roots.append(step)
            else:
                children.setdefault(step.parent, []).append(step)
        stack = list(reversed(roots))
        while stack:
            step = stack.pop()
            yield step
            stack.extend(sorted(children.get(step.id, ()), key=lambda s: s.branch, reverse=True))

    def subset_name(self, step) -> str:
        if step.parent is None:
            return "S"
        parent = self.steps.get(step.parent)
        test = None if parent is None or parent.chosen is None else parent.chosen.test
        if isinstance(test, NominalTest):
            return f"S_{shown(test.attribute.values[step.branch])}"
        return "S_{" + shown(step.condition) + "}"

    def members(self, step) -> list[str]:
        """The rows named at ``step``: --id values, or 1-based row numbers."""
        if step.rows is None:
            return []
        if self.ids is not None:
            return [shown(self.ids[int(r)]) for r in step.rows]
        return [str(int(r) + 1) for r in step.rows]

    def counts(self, step) -> str:
        if self.regression:
            mean = "-" if step.value is None else f"{step.value:.4g}"
            return f"[n {number(step.counts.sum())}, mean {mean}]"
        return class_counts(step.counts, self.classes)

    def label(self, step) -> str:
        if self.regression:
            return "-" if step.value is None else f"{step.value:.6g}"
        return shown(self.classes[step.label])


def growth_text(growth: Growth) -> str:
    """The narration, one block per node."""
    p = growth.parameters
    order = "depth first; splits made best first, numbered" if p.get("max_leaves") is not None else "depth first"
    lines = [f"Growth, node by node ({order}); splits scored by {growth.measure}:"]
    for step in growth.preorder():
        lines.extend(_node_lines(growth, step))
    if p.get("collapse"):
        lines.append("Then every subtree whose leaves make no fewer training errors than one leaf is collapsed (J48).")
    return "\n".join(lines) + "\n"


def _node_lines(growth: Growth, step) -> list[str]:
    parent = None if step.parent is None else growth.number[step.parent]
    where = "the root" if parent is None else f"{_path_text(step, growth.tails)} (branch of node {parent})"
    name = growth.subset_name(step)
    lines = [f"Node {growth.number[step.id]}: {where}"]
    if step.reason == "empty":
        lines.append(f"  {name} = {{}}")
        lines.append(f"  Leaf {growth.label(step)}: {REASON_TEXT['empty']}")
        return lines
    members = growth.members(step)
    if members:
        more = f", ... ({step.n_rows} rows)" if step.n_rows > len(members) else ""
        lines.append(f"  {name} = {{{', '.join(members)}{more}}}")
    else:
        lines.append(f"  {name}: {step.n_rows} rows")
    impurity = "MSE" if growth.regression else _impurity_name(growth.parameters)
    lines.append(f"  {growth.counts(step)}  {impurity}({name}) = {_fmt(step.impurity, growth.regression)}")
    for candidate in step.candidates:
        lines.append("  " + _candidate_line(growth, name, candidate, step.average))
    lines.append("  " + _decision(growth, step))
    return lines


def _impurity_name(parameters: dict) -> str:
    return "Gini" if parameters.get("criterion") in ("gini", "cart") else "Entropy"


def _fmt(value, regression: bool = False) -> str:
    if value is None or not math.isfinite(value):
        return "-" if value is None else str(value)
    text = f"{value:.4g}" if regression else f"{value:.{DIGITS}f}"
    # a score that is zero in exact arithmetic may come out as -1e-17: print it as 0, not -0.000
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _test_text(test, show=shown) -> str:
    if isinstance(test, NominalTest):
        return show(test.attribute.name)
    return test.branch_labels(show)[0]


def _candidate_line(growth: Growth, name: str, c, average) -> str:
    test = _test_text(c.test)
    regression = growth.regression
    if c.mdl is not None and c.gain is not None and c.gain <= 0:
        mdl = _fmt(c.mdl)
        return f"Gain({name}, {test}) = {_fmt(c.gain)} after the MDL correction {mdl}: no gain left, not a candidate"
    parts = []
    if c.gain is not None and growth.measure != "gain":
        parts.append(f"Gain({name}, {test}) = {_fmt(c.gain)}")
    if c.cost is not None:
        parts.append(f"Cost({test}) = {number(c.cost)}, {growth.measure} = {_fmt(c.score)}")
    else:
        parts.append(f"{_label(growth.measure)}({name}, {test}) = {_fmt(c.score, regression)}")
    text = ", ".join(parts)
    if c.mdl is not None:
        text += f" (the gain less the MDL correction {_fmt(c.mdl)})"
    if c.eligible is False:
        text += f"  below the average gain {_fmt(average)}: not compared" if average is not None else "  not compared"
    return text


def _decision(growth: Growth, step) -> str:
    chosen = step.chosen
    if step.reason is None:
        score = _fmt(chosen.score, growth.regression)
        text = f"Split on {_test_text(chosen.test)}: the highest {growth.measure} ({score})"
        if step.average is not None:
            text += f" among the attributes with at least the average gain ({_fmt(step.average)})"
        if step.ties:
            rule = (
                "scikit-learn's attribute order (--seed) breaks the tie"
                if growth.parameters.get("ties") == "sklearn" and growth.parameters.get("algorithm") == "cart"
                else "the first in column order wins"
            )
            text += f"; tied with {', '.join(map(shown, step.ties))}: {rule}"
        if chosen.mdl is not None:
            text += f"; a numeric cut, its gain less the MDL correction {_fmt(chosen.mdl)}"
        if step.expanded is not None and growth.parameters.get("max_leaves") is not None:
            text += f" (split number {step.expanded})"
        return text
    text = f"Leaf {growth.label(step)}: {REASON_TEXT.get(step.reason, step.reason)}"
    if chosen is not None:
        text += f" (best: {_test_text(chosen.test)}, {growth.measure} {_fmt(chosen.score, growth.regression)}"
        chi = step.chi
        if chi is not None and step.reason == "not-significant":
            text += f"; chi2 = {chi.statistic:.4f}, df {chi.df}, p = {chi.p_value:.4g}"
        text += ")"
    return text


def _tails(steps: dict) -> dict:
    """The last PATH_SHOWN conditions of each node's path (a node's depth says whether there are more)."""
    tails: dict = {}
    for step in sorted(steps.values(), key=lambda s: s.depth):  # parents before children
        if step.parent is None:
            tails[step.id] = ()
        else:
            tails[step.id] = (*tails.get(step.parent, ()), step.condition)[-PATH_SHOWN:]
    return tails


def _path_text(step, tails: dict) -> str:
    return ("..., " if step.depth > PATH_SHOWN else "") + ", ".join(map(shown, tails[step.id]))


def growth_records(growth: Growth) -> list[dict]:
    """The ``growth`` list of a ``dtree-trace`` document: one record per node, in preorder."""
    return [_record(growth, step) for step in growth.preorder()]


def _record(growth: Growth, step) -> dict:
    record = {
        "id": growth.number[step.id],
        "parent": None if step.parent is None else growth.number[step.parent],
        "depth": step.depth,
        "condition": step.condition,
        "path": (["..."] if step.depth > PATH_SHOWN else []) + list(growth.tails[step.id]),
        "n_rows": step.n_rows,
    }
    if step.rows is not None:
        if growth.ids is not None:
            record["ids"] = [growth.ids[int(r)] for r in step.rows]
        else:
            record["rows"] = [int(r) + 1 for r in step.rows]
    if growth.regression:
        record["weight"] = float(step.counts.sum())
        record["mean"] = step.value
        record["impurity"] = {"measure": "mse", "value": _num(step.impurity)}
    else:
        record["counts"] = {c: float(n) for c, n in zip(growth.classes, step.counts)}
        record["impurity"] = {"measure": _impurity_name(growth.parameters).lower(), "value": _num(step.impurity)}
    record["candidates"] = [_candidate(c) for c in step.candidates]
    if step.average is not None:
        record["average_gain"] = _num(step.average)
    record["chosen"] = None if step.chosen is None else _candidate(step.chosen)
    if step.reason is None:
        record["split"] = True
        record["ties"] = list(step.ties)
    else:
        record["split"] = False
        record["leaf"] = {"label": growth.label(step) if not growth.regression else step.value, "reason": step.reason}
        if step.chi is not None and step.reason == "not-significant":
            chi = step.chi
            record["leaf"]["chi_square"] = {"statistic": chi.statistic, "df": chi.df, "p_value": chi.p_value}
    if step.expanded is not None and growth.parameters.get("max_leaves") is not None:
        record["expanded"] = step.expanded
    return record


def _candidate(c) -> dict:
    out = {"attribute": c.attribute, "test": _test_text(c.test, str), "score": _num(c.score)}
    for key, value in (("gain", c.gain), ("gain_ratio", c.ratio), ("mdl", c.mdl), ("cost", c.cost)):
        if value is not None:
            out[key] = _num(value)
    if c.eligible is not None:
        out["eligible"] = c.eligible
    return out


def _num(value):
    """A finite float, or None (JSON has no infinities)."""
    return float(value) if value is not None and math.isfinite(value) else None
