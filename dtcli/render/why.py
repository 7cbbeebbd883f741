"""Explained predictions written out: a path as one line, a block per row for people, the JSON records.

A step shows the branch taken and the row's value: ``Outlook = Rain`` (a
nominal value is its branch), ``Humidity = 90 > 75`` (a number, then its side
of the threshold), ``Car = Sports in {Sports, SUV}``; a missing (or never seen)
value shows the branch it was sent down and that branch's share of the
training cases, ``Outlook = ? (Sunny, 5/14)``. A path is its steps joined by
`` -> `` and ending with the leaf's class (a regression leaf: its mean); a rule
is ``R3: cond and cond -> class`` or ``default -> class``. Several paths (a row
with a missing value) are each preceded by their weight.
"""

from __future__ import annotations

import json

import numpy as np

from dtcli.render.counts import class_counts, number
from dtcli.render.printable import shown


def _same(text: str) -> str:
    return text


def value_text(value) -> str:
    """A row's value: a label as it is, a number as short as it reads back (``90``, ``0.1``), ``?`` missing."""
    if value is None:
        return "?"
    if isinstance(value, str):
        return value
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def step_text(step, show=_same) -> str:
    """``Outlook = Rain``, ``Humidity = 90 > 75``, ``Outlook = ? (Sunny, 5/14)`` (names and values by ``show``)."""
    rel = step.relation
    if step.value is None:
        taken = show(step.branch) if rel is None else show(rel).removeprefix("= ")
        if step.fraction is not None:
            taken += f", {number(step.fraction[0])}/{number(step.fraction[1])}"
        elif step.share < 1.0:
            taken += f", {step.share:.4g}"
        return f"{show(step.attribute)} = ? ({taken})"
    if step.test == "nominal" and rel is not None and rel[2:] == step.value and rel[:2] == "= ":
        return show(step.branch)
    if rel is None:  # a rule's interval: 22.5 < Age <= 45 (Age = 30)
        return f"{show(step.branch)} ({show(step.attribute)} = {show(value_text(step.value))})"
    return f"{show(step.attribute)} = {show(value_text(step.value))} {show(rel)}"


def leaf_text(path, classes, show=_same) -> str:
    """The class a path ends with, or a regression leaf's mean."""
    if path.value is not None:
        return f"{path.value:.10g}"
    return show(classes[path.label])


def path_text(path, classes, show=_same) -> str:
    """One path on one line."""
    end = leaf_text(path, classes, show)
    if path.rule is not None:
        if path.rule == 0:
            return f"default -> {end}"
        return f"R{path.rule}: " + " and ".join(step_text(s, show) for s in path.steps) + f" -> {end}"
    return " -> ".join([*(step_text(s, show) for s in path.steps), end])


def paths_cell(paths, classes) -> str:
    """The ``path`` column of the CSV output: the path, or the weighted paths joined by `` | ``."""
    if len(paths) == 1 and paths[0].weight == 1.0:
        return path_text(paths[0], classes)
    return " | ".join(f"{p.weight:.6g}: {path_text(p, classes)}" for p in paths)


def row_block(number_: int, paths, proba: np.ndarray, classes, regression: bool, every: bool = False) -> str:
    """A row explained for people: its prediction (its probability when several paths mix; with
    ``every``, every class's), each path (weighted when several) with the leaf's training counts,
    and for several paths the weighted sum that gives the prediction."""
    if regression:
        head = f"Row {number_}: {proba[0]:.10g}"
    else:
        best = int(np.argmax(proba))
        head = f"Row {number_}: {shown(classes[best])}"
        if every:
            head += " (" + ", ".join(f"{shown(c)} {p:.3f}" for c, p in zip(classes, proba)) + ")"
        elif len(paths) > 1:
            head += f" ({proba[best]:.3f})"
    lines = [head]
    several = len(paths) > 1
    for p in paths:
        counts = _cases(p.counts[0]) if regression else class_counts(p.counts, classes)
        lead = f"{p.weight:.3f}  " if several else ""
        lines.append(f"  {lead}{path_text(p, classes, shown)} {counts}")
    if several:
        lines.extend(_sums(paths, proba, classes, regression))
    return "\n".join(lines) + "\n"


def _cases(n: float) -> str:
    return f"({number(n)} case)" if n == 1 else f"({number(n)} cases)"


def _share(path, j: int) -> str:
    """What a path's leaf gives class ``j`` (or its mean), as the counts make it: ``3/5``."""
    total = float(np.sum(path.counts))
    if path.value is not None:
        return f"{path.value:.6g}"
    if path.mixed or total <= 0:
        return f"{path.distribution[j]:.3g}"
    return f"{number(path.counts[j])}/{number(total)}"


def _sums(paths, proba, classes, regression: bool) -> list[str]:
    """``  No = 0.357 x 3/3 + 0.286 x 0/4 = 0.357``: the weighted sum of the leaves, class by class."""
    names = ["value"] if regression else [shown(c) for c in classes]
    width = max(len(n) for n in names)
    lines = []
    for j, name in enumerate(names):
        terms = " + ".join(f"{p.weight:.3f} x {_share(p, j)}" for p in paths)
        lines.append(f"  {name:<{width}} = {terms} = {proba[j]:.3f}")
    return lines


def path_record(path, classes, regression: bool) -> dict:
    """A path as the JSON output writes it."""
    record = {}
    if path.rule is not None:
        record["rule"] = path.rule if path.rule else "default"
    record["steps"] = [
        {"attribute": s.attribute, "test": s.test, "branch": s.branch, "value": s.value, "share": s.share}
        for s in path.steps
    ]
    record["leaf"] = path.value if regression else classes[path.label]
    record["weight"] = path.weight
    record["counts"] = [float(c) for c in path.counts]
    return record


def predictions_json(head: dict, records) -> str:
    """The ``dtree-predictions`` document: ``head``'s fields, then ``predictions``, one record a line."""
    text = json.dumps(head, indent=2, ensure_ascii=False)
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    body = "[\n" + ",\n".join(f"    {line}" for line in lines) + "\n  ]" if lines else "[]"
    return f'{text[:-2]},\n  "predictions": {body}\n}}\n'
