"""Rule sets for people and programs: text, JSON, CSV, Markdown, LaTeX, Python and SQL.

Markdown is a table (names and values with Markdown's punctuation
backslash-escaped, so a value can neither format nor break the table);
LaTeX a fragment (``enumerate`` of ``IF ... THEN ...`` items, comparisons
in math mode, LaTeX's special characters escaped) to ``\\input`` into notes.

The Python and SQL forms are generated code. Every attribute name and value
in them is written as a literal produced by the language's own quoting
(``repr`` for Python strings; doubled quotes for SQL identifiers and
strings), and numbers as finite float literals, so whatever the names and
values hold, the generated code can only compare values and return a class.
A date attribute's thresholds are compared as text, dates written in its
format (``dates.sortable``: such text sorts as the dates do); one whose
format does not sort so (offsets, month names, day first) is not exported.
"""

from __future__ import annotations

import csv
import io
import math
import re

from dtcli.errors import ParameterError
from dtcli.model.dates import sortable, threshold_text
from dtcli.model.rules import RuleSet, dumps_rules
from dtcli.render.counts import class_counts
from dtcli.render.printable import shown

FORMATS = ("text", "json", "csv", "markdown", "latex", "python", "sql")


def _conditions(rule, show=str) -> str:
    return " AND ".join(c.text(show) for c in rule.conditions) or "TRUE"


def _accuracy(rule) -> str:
    return "-" if math.isnan(rule.accuracy) else f"{rule.accuracy:.3f}"


def text(ruleset: RuleSet) -> str:
    target, classes = shown(ruleset.schema.target.name), [shown(c) for c in ruleset.classes]
    lines = []
    for k, rule in enumerate(ruleset.rules, start=1):
        estimate = "" if rule.estimate is None else f", estimate {rule.estimate:.3f}"
        lines.append(f"R{k}: IF {_conditions(rule, shown)} THEN {target} = {classes[rule.label]}")
        cases = f"{rule.cases:g} case" + ("" if rule.cases == 1 else "s")
        lines.append(f"    {cases}, accuracy {_accuracy(rule)}{estimate} {class_counts(rule.counts, ruleset.classes)}")
    lines.append(f"R{len(ruleset.rules) + 1}: ELSE {target} = {classes[ruleset.default]}  (default)")
    return "\n".join(lines) + "\n"


def table_rows(ruleset: RuleSet, show=str):
    """(rule, conditions, class, cases, accuracy, estimate) of each rule and the default; names
    and values written by ``show``."""
    classes = ruleset.classes
    for k, rule in enumerate(ruleset.rules, start=1):
        yield (
            f"R{k}",
            _conditions(rule, show),
            show(classes[rule.label]),
            f"{rule.cases:g}",
            _accuracy(rule),
            "" if rule.estimate is None else f"{rule.estimate:.6g}",
        )
    yield (
        f"R{len(ruleset.rules) + 1}",
        "(default)",
        show(classes[ruleset.default]),
        f"{ruleset.default_counts.sum():g}",
        "",
        "",
    )


def to_csv(ruleset: RuleSet) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("rule", "conditions", "class", "cases", "accuracy", "estimate"))
    writer.writerows(table_rows(ruleset))
    return out.getvalue()


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&])")


def markdown_text(value: str) -> str:
    """A name or value for a Markdown table cell: control characters shown escaped, then every
    character that could be read as markup inside a table cell backslash-escaped (CommonMark allows
    it for any ASCII punctuation), so the cell shows the value as it is."""
    return _MARKDOWN.sub(r"\\\1", shown(value))


def markdown(ruleset: RuleSet) -> str:
    lines = ["| rule | conditions | class | cases | accuracy | estimate |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(ruleset, markdown_text)]
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise ParameterError("a rule compares with a number that is not finite; it cannot be exported")
    return repr(float(value))


def _comparisons(rule):
    """A rule's tests as (operator, attribute, operand): ``in`` a tuple of values, ``known``
    (a number is present), or ``>``/``<=`` a finite float literal. Python and SQL render these."""
    for c in rule.conditions:
        if c.is_nominal:
            yield "in", c.attribute, c.values
            continue
        if c.time:  # dates: "dated" (a value is present), "date>"/"date<=" a date of the format, as text
            yield from _date_comparisons(c)
            continue
        yield "known", c.attribute, None
        if c.low is not None:
            yield ">", c.attribute, _number(c.low)
        if c.high is not None:
            yield "<=", c.attribute, _number(c.high)


def _date_comparisons(c):
    if not sortable(c.time):
        raise ParameterError(
            f"column {c.attribute!r} holds dates written {c.time}, which do not sort as text as the dates do; "
            "Python and SQL exports compare such text, so apply the model or the JSON rule set with dtree predict"
        )
    yield "dated", c.attribute, None
    for op, value in ((">", c.low), ("<=", c.high)):
        if value is not None:
            yield "date" + op, c.attribute, "'" + threshold_text(value, c.time) + "'"  # digits and separators


def python(ruleset: RuleSet) -> str:
    """A self-contained ``predict(row: dict) -> str``; names and values as ``repr`` literals."""
    classes = ruleset.classes
    lines = [
        '"""Rules exported by dtree: predict(row) returns the class for a dict of column -> value."""',
        "",
        "",
        "def _number(value):",
        "    try:",
        "        number = float(value)",
        "    except (TypeError, ValueError):",
        "        return None",
        "    return None if number != number else number",
        "",
        "",
        "def _text(value):",
        "    if value is None:",
        "        return None",
        "    text = str(value).strip()",
        "    return None if text in ('', '?') else text",
        "",
        "",
        "def predict(row: dict) -> str:",
    ]
    for rule in ruleset.rules:
        tests = []
        for op, name, operand in _comparisons(rule):
            if op == "in":
                tests.append(f"_text(row.get({name!r})) in {tuple(operand)!r}")
            elif op == "known":
                tests.append(f"_number(row.get({name!r})) is not None")
            elif op == "dated":
                tests.append(f"_text(row.get({name!r})) is not None")
            elif op.startswith("date"):
                tests.append(f"_text(row.get({name!r})) {op[4:]} {operand}")
            else:
                tests.append(f"_number(row.get({name!r})) {op} {operand}")
        condition = " and ".join(tests) or "True"
        lines.append(f"    if {condition}:")
        lines.append(f"        return {repr(classes[rule.label])}")
    lines.append(f"    return {repr(classes[ruleset.default])}")
    return "\n".join(lines) + "\n"


def _identifier(name: str) -> str:
    if "\x00" in name:
        raise ParameterError(f"column name {name!r} holds a NUL character, which SQL cannot quote")
    return '"' + name.replace('"', '""') + '"'


def _string(value: str) -> str:
    if "\x00" in value:
        raise ParameterError(f"value {value!r} holds a NUL character, which SQL cannot quote")
    return "'" + value.replace("'", "''") + "'"


def sql(ruleset: RuleSet) -> str:
    """A ``CASE WHEN ... END`` expression; NULL (missing) satisfies no condition."""
    classes = ruleset.classes
    lines = ["CASE"]
    for rule in ruleset.rules:
        tests = []
        for op, name, operand in _comparisons(rule):
            if op == "in":
                tests.append(f"{_identifier(name)} IN ({', '.join(_string(v) for v in operand)})")
            elif op not in ("known", "dated"):  # in SQL, NULL already fails every comparison
                tests.append(f"{_identifier(name)} {op.removeprefix('date')} {operand}")
        lines.append(f"  WHEN {' AND '.join(tests) or '1 = 1'} THEN {_string(classes[rule.label])}")
    lines.append(f"  ELSE {_string(classes[ruleset.default])}")
    lines.append("END")
    return "\n".join(lines) + "\n"


def render(ruleset: RuleSet, fmt: str) -> str:
    from dtcli.render.latex import latex

    writers = {"text": text, "json": dumps_rules, "csv": to_csv, "markdown": markdown, "latex": latex}
    return {**writers, "python": python, "sql": sql}[fmt](ruleset)
