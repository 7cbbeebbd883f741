"""``dtree diff``'s result: a few lines for people, or the ``dtree-diff`` JSON document.

The document (documented in dtree-diff(1) and dtree-formats(5)): ``format`` ("dtree-diff"),
``schema_version`` (1), ``equivalent``, ``kind`` ("tree" or "rules"), ``a`` and ``b`` (the files),
``tolerance``, ``problems``, ``notes``, ``summary``, ``first_difference``, ``differences``,
``differences_found`` and ``agreement``.
"""

from __future__ import annotations

import json

from dtcli.compare.findings import COUNT_NOISE, SHOWN, Comparison, Difference, Tolerance
from dtcli.model.dates import threshold_text
from dtcli.model.value_text import value_set
from dtcli.render.printable import shown

FORMAT = "dtree-diff"
SCHEMA_VERSION = 1
FORMATS = ("text", "json")

ASPECTS = {
    "kind": "leaf against split",
    "test": "the test",
    "threshold": "the threshold",
    "branches": "the branches",
    "counts": "the counts",
    "label": "the label",
    "value": "the mean",
    "conditions": "the conditions",
    "class": "the class",
    "only in A": "only in A",
    "only in B": "only in B",
}


def diff_text(comparison: Comparison, names: tuple[str, str], agreement=None) -> str:
    """The verdict, the schema problems, the first difference, the summary, the agreement, the notes."""
    what = "Trees" if comparison.kind == "tree" else "Rule sets"
    verdict = "are equivalent" if comparison.equivalent else "differ"
    lines = [f"{what} {shown(names[0])} (A) and {shown(names[1])} (B) {verdict}"]
    lines += [f"Schema: {shown(problem)}" for problem in comparison.problems]
    if comparison.differences:
        lines += _difference_lines(comparison.differences[0], comparison.kind, comparison.times)
    lines.append(_summary_line(comparison))
    if agreement is not None:
        lines.append(_agreement_line(agreement))
    lines += [f"Note: {shown(note)}" for note in comparison.notes]
    return "\n".join(lines) + "\n"


def _difference_lines(difference: Difference, kind: str, times: dict) -> list[str]:
    where, aspects, a, b = _difference_cells(difference, kind, times)
    return [f"First difference at {where}: {aspects}", f"  A: {a}", f"  B: {b}"]


def _difference_cells(difference: Difference, kind: str, times: dict) -> tuple[str, str, str, str]:
    """(where, what differs, A's node or rule, B's) of one difference, as the text shows them."""
    steps = difference.path.steps()
    where = " -> ".join(map(shown, steps)) if steps else "the root"
    if kind == "rules":
        where = steps[0] if steps[0] == "default" else f"rule {steps[0]}"
    aspects = ", ".join(ASPECTS.get(a, a) for a in difference.aspects)
    a, b = ("(none)" if view is None else _view_text(view, kind, times) for view in (difference.a, difference.b))
    return where, aspects, a, b


def diff_html(comparison: Comparison, names: tuple[str, str], agreement=None) -> str:
    """For a notebook: the verdict, schema problems, summary, agreement (``dtree diff --data``) and notes, and
    a table of the differences found (the first ``SHOWN``), every text escaped."""
    from dtcli.render.html import html_table, paragraph

    what = "Trees" if comparison.kind == "tree" else "Rule sets"
    verdict = "are equivalent" if comparison.equivalent else "differ"
    lines = [f"{what} {shown(names[0])} (A) and {shown(names[1])} (B) {verdict}"]
    lines += [f"Schema: {shown(problem)}" for problem in comparison.problems]
    lines.append(_summary_line(comparison))
    if agreement is not None:
        lines.append(_agreement_line(agreement))
    lines += [f"Note: {shown(note)}" for note in comparison.notes]
    out = paragraph("\n".join(lines))
    if comparison.differences:
        rows = [_difference_cells(d, comparison.kind, comparison.times) for d in comparison.differences]
        caption = (
            "Differences"
            if comparison.found <= len(rows)
            else f"The first {len(rows)} of {comparison.found} differences"
        )
        out += "\n" + html_table(["where", "what differs", "A", "B"], rows, caption)
    return out


def _view_text(view: dict, kind: str, times: dict) -> str:
    if kind == "rules":
        conditions = " AND ".join(condition_text(condition, times) for condition in view["conditions"])
        then = shown(view["class"]) if "class" in view else repr(float(view["value"]))
        head = f"IF {conditions} THEN {then}" if conditions else f"{then} (default)"
        if "class" not in view:  # a regression rule: its weight
            return f"{head} [weight {_number(view['counts'][0])}]"
        return f"{head} {_counts_text(view['counts'])}"
    if view["kind"] == "split":
        head = f"split on {split_text(view['test'], times)}"
    else:
        head = "leaf" + (f" -> {shown(view['label'])}" if "label" in view else "")
    if "counts" in view:
        return f"{head} {_counts_text(view['counts'])}"
    return f"{head} [weight {_number(view['weight'])}, mean {_number(view['value'])}]"


def split_text(test: dict, times: dict | None = None) -> str:
    """``Outlook`` (one branch per value), ``Humidity <= 75``, ``Car in {Sports}`` (``times``: the date
    attributes' formats)."""
    name = shown(test["attribute"])
    if test["kind"] == "numeric":
        return f"{name} <= {threshold_text(test['threshold'], (times or {}).get(test['attribute'], ''))}"
    if test["kind"] == "subset":
        return f"{name} in {value_set(test['values'], shown)}"
    return name


def condition_text(condition: dict, times: dict | None = None) -> str:
    """A condition of a rule set file as ``dtree rules`` prints it (``(A <= t or missing)`` when marked;
    ``times``: the date attributes' formats)."""
    test = _condition_test(condition, times)
    return f"({test} or missing)" if condition.get("missing") else test


def _condition_test(condition: dict, times: dict | None) -> str:
    name, time = shown(condition["attribute"]), (times or {}).get(condition["attribute"], "")
    if "in" in condition:
        values = condition["in"]
        return f"{name} = {shown(values[0])}" if len(values) == 1 else f"{name} in {value_set(values, shown)}"
    low, high = condition.get("above"), condition.get("at_most")
    if low is not None and high is not None:
        return f"{threshold_text(low, time)} < {name} <= {threshold_text(high, time)}"
    return f"{name} <= {threshold_text(high, time)}" if high is not None else f"{name} > {threshold_text(low, time)}"


def _counts_text(counts: dict) -> str:
    return "[" + ", ".join(f"{shown(c)} {_number(n)}" for c, n in counts.items()) + "]"


def _number(value: float) -> str:
    """Up to 10 significant digits: a count that differs in the 4th decimal shows it."""
    return f"{float(value):.10g}"


def _summary_line(comparison: Comparison) -> str:
    s = comparison.summary
    return (
        f"{s.units.capitalize()}: {s.matching} match, {s.differing} differ, {s.only_a} only in A, "
        f"{s.only_b} only in B (A has {s.count_a}, B has {s.count_b})"
    )


def _agreement_line(agreement: dict) -> str:
    rows, same = agreement["rows"], agreement["same"]
    what = "value" if agreement["regression"] else "class"
    share = f" ({100 * same / rows:.1f}%)" if rows else ""
    return f"Agreement on {shown(agreement['data'])}: {same} of {rows} rows{share} get the same {what}"


def diff_json(comparison: Comparison, names: tuple[str, str], formats: tuple[str, str], tolerance: Tolerance,
              agreement=None) -> str:  # fmt: skip
    """The ``dtree-diff`` document (``format`` and ``schema_version`` first), two-space indent, final newline."""
    differences = [_difference_json(d) for d in comparison.differences]
    s = comparison.summary
    doc = {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "equivalent": comparison.equivalent,
        "kind": comparison.kind,
        "a": {"file": names[0], "format": formats[0]},
        "b": {"file": names[1], "format": formats[1]},
        "tolerance": {"threshold": tolerance.threshold, "counts": tolerance.counts, "count_noise": COUNT_NOISE},
        "problems": list(comparison.problems),
        "notes": list(comparison.notes),
        "summary": {
            "units": s.units,
            "a": s.count_a,
            "b": s.count_b,
            "matching": s.matching,
            "differing": s.differing,
            "only_a": s.only_a,
            "only_b": s.only_b,
        },
        "first_difference": differences[0] if differences else None,
        "differences": differences,
        "differences_found": comparison.found,
        "differences_limit": SHOWN,
        "agreement": agreement,
    }
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _difference_json(difference: Difference) -> dict:
    return {"path": difference.path.steps(), "aspects": list(difference.aspects), "a": difference.a, "b": difference.b}
