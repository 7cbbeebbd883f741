"""Rule sets for people and programs: text, JSON, CSV, Markdown, LaTeX, Python and SQL.

Markdown is a table (names and values with Markdown's punctuation
backslash-escaped, so a value can neither format nor break the table);
LaTeX a fragment (``enumerate`` of ``IF ... THEN ...`` items, comparisons
in math mode, LaTeX's special characters escaped) to ``\\input`` into notes.

The Python and SQL forms are generated code. Every attribute name and value
in them is written as a literal produced by the language's own quoting
(``repr`` for Python strings; for SQL, the quoting of the dialect asked
for, ``sql_dialects``), and numbers as finite float literals, so whatever the names and
values hold, the generated code can only compare values and return a class
(a regression rule set's: a number, written exactly).

Both read a value as ``dtree predict`` reads a CSV cell: a missing marker
(empty, ``?``; for a number also ``NA``, ``NaN``, ``N/A``, ...) or NULL/None is
missing, spaces around a value are ignored, and a numeric attribute is
compared as a number whatever the column's type (SQL: ``CAST``, so a TEXT
column as ``sqlite3 .import`` makes compares as numbers, not as text). The
SQL of a column is written by ``_sql_*`` alone, in the quoting and casts of the
dialect asked for (``sql_dialects``). A date attribute's thresholds are compared as text, dates written in
its format (``dates.sortable``: such text sorts as the dates do); one whose
format does not sort so (offsets, month names, day first) is not exported.
"""

from __future__ import annotations

import csv
import io
import math
import re

from dtcli.errors import ParameterError
from dtcli.io.csv.cells import MISSING_CELLS, NUMERIC_MISSING
from dtcli.model.dates import sortable, threshold_text
from dtcli.model.rules import RuleSet, dumps_rules
from dtcli.model.table import BOOLEAN_WORDS
from dtcli.render.counts import class_counts
from dtcli.render.printable import shown
from dtcli.render.sql_dialects import DEFAULT_DIALECT, Dialect, check_names

FORMATS = ("text", "json", "csv", "markdown", "latex", "python", "sql")


def _conditions(rule, show=str) -> str:
    return " AND ".join(c.text(show) for c in rule.conditions) or "TRUE"


def _accuracy(rule) -> str:
    return "-" if math.isnan(rule.accuracy) else f"{rule.accuracy:.3f}"


def text(ruleset: RuleSet) -> str:
    target = shown(ruleset.schema.target.name)
    lines = []
    for k, rule in enumerate(ruleset.rules, start=1):
        estimate = "" if rule.estimate is None else f", estimate {rule.estimate:.3f}"
        lines.append(f"R{k}: IF {_conditions(rule, shown)} THEN {target} = {ruleset.outcome(rule, shown)}")
        cases = f"{rule.cases:g} case" + ("" if rule.cases == 1 else "s")
        if ruleset.schema.is_regression:
            lines.append(f"    {cases}")
            continue
        lines.append(f"    {cases}, accuracy {_accuracy(rule)}{estimate} {class_counts(rule.counts, ruleset.classes)}")
    lines.append(f"R{len(ruleset.rules) + 1}: ELSE {target} = {ruleset.outcome(None, shown)}  (default)")
    return "\n".join(lines) + "\n"


def table_rows(ruleset: RuleSet, show=str):
    """(rule, conditions, class, cases, accuracy, estimate) of each rule and the default; names
    and values written by ``show``."""
    for k, rule in enumerate(ruleset.rules, start=1):
        yield (
            f"R{k}",
            _conditions(rule, show),
            ruleset.outcome(rule, show),
            f"{rule.cases:g}",
            _accuracy(rule),
            "" if rule.estimate is None else f"{rule.estimate:.6g}",
        )
    yield (
        f"R{len(ruleset.rules) + 1}",
        "(default)",
        ruleset.outcome(None, show),
        f"{ruleset.default_counts.sum():g}",
        "",
        "",
    )


def _predicts(ruleset: RuleSet) -> str:
    """The heading of the column of what each rule predicts."""
    return "value" if ruleset.schema.is_regression else "class"


def to_csv(ruleset: RuleSet) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("rule", "conditions", _predicts(ruleset), "cases", "accuracy", "estimate"))
    writer.writerows(table_rows(ruleset))
    return out.getvalue()


_MARKDOWN = re.compile(r"([\\`*_\[\]<>|~&])")


def markdown_text(value: str) -> str:
    """A name or value for a Markdown table cell: control characters shown escaped, then every
    character that could be read as markup inside a table cell backslash-escaped (CommonMark allows
    it for any ASCII punctuation), so the cell shows the value as it is."""
    return _MARKDOWN.sub(r"\\\1", shown(value))


def markdown(ruleset: RuleSet) -> str:
    lines = [f"| rule | conditions | {_predicts(ruleset)} | cases | accuracy | estimate |", "|---|---|---|---|---|---|"]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(ruleset, markdown_text)]
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    if not math.isfinite(value):
        raise ParameterError("a rule compares with a number that is not finite; it cannot be exported")
    return repr(float(value))


def _folded(values) -> tuple[str, ...]:
    """``true`` and ``false`` in lower case, as the exports fold a cell's (``Attribute.code_of``: any case)."""
    return tuple(v.lower() if v.lower() in BOOLEAN_WORDS else v for v in values)


def _sql_text(d: Dialect, ruleset: RuleSet, c, column: str) -> str:
    """A nominal column's text as compared: ``Dialect.text``, and for an attribute with the values true or
    false (in some case) those words folded to lower case, as ``dtree predict`` matches them."""
    attribute = ruleset.schema.attributes[ruleset.schema.index(c.attribute)]
    text = d.text(column)
    if not any(v.lower() in BOOLEAN_WORDS for v in attribute.values):
        return text
    return f"(CASE WHEN LOWER({text}) IN ('true', 'false') THEN LOWER({text}) ELSE {text} END)"


def _other_values(ruleset: RuleSet, condition) -> tuple[str, ...]:
    """The attribute's known values outside a nominal condition's: a condition marked ``missing``
    holds for every value but these (so for a missing one, and one never seen in training)."""
    attribute = ruleset.schema.attributes[ruleset.schema.index(condition.attribute)]
    return tuple(v for v in attribute.values if v not in condition.values)


def _date_bounds(c) -> tuple[str | None, str | None]:
    """A date condition's bounds as dates written in the attribute's format (text that sorts as the
    dates do), or an error for a format whose text does not sort so."""
    if not sortable(c.time):
        raise ParameterError(
            f"column {c.attribute!r} holds dates written {c.time}, which do not sort as text as the dates do; "
            "Python and SQL exports compare such text, so apply the model or the JSON rule set with dtree predict"
        )
    return tuple(None if v is None else threshold_text(v, c.time) for v in (c.low, c.high))


def _instant_bounds(c) -> tuple[str | None, str | None]:
    """A date condition's thresholds as ISO 8601 instants in UTC to the microsecond: what a cell written as
    a date-time compares with (a threshold printed as a day, 2024-03-09, may be the midpoint of two days,
    2024-03-09T12:00:00, where a date-time cell of that day is decided)."""
    from datetime import datetime, timedelta, timezone

    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    return tuple(None if v is None else (epoch + timedelta(seconds=v)).isoformat() for v in (c.low, c.high))


def _predicted_literal(ruleset: RuleSet, rule, quote) -> str:
    """What ``rule`` (None: the default) returns: its class quoted by ``quote``, or its value."""
    if ruleset.schema.is_regression:
        return _number(ruleset.default_value if rule is None else rule.value)
    return quote(ruleset.classes[ruleset.default if rule is None else rule.label])


# dates compare as the text of their format (``_date_bounds``), which sorts as they do
_DATED = [
    "def _instant(text):",
    "    from datetime import datetime, timezone",
    "",
    "    try:  # ISO 8601 in any of its forms, as dtree predict reads them: a date alone is its midnight, UTC",
    "        moment = datetime.fromisoformat(text[:-1] + '+00:00' if text.endswith('Z') else text)",
    "    except ValueError:",
    "        return None",
    "    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment",
    "",
    "",
    "def _dated(value, low, high, missing, after, until):",
    "    text = _text(value)",
    "    if text is None:",
    "        return missing",
    "    moment = _instant(text)",
    "    if moment is None:  # (not ISO 8601: as text of the model's format, low and high)",
    "        return (low is None or text > low) and (high is None or text <= high)",
    "    # the thresholds' instants (after, until), as dtree predict compares them",
    "    return (after is None or moment > _instant(after)) and (until is None or moment <= _instant(until))",
    "",
    "",
]


def python(ruleset: RuleSet) -> str:
    """A self-contained ``predict(row: dict)``; names and values as ``repr`` literals."""
    regression = ruleset.schema.is_regression
    returns = "the predicted number" if regression else "the class"
    lines = [
        f'"""Rules exported by dtree: predict(row) returns {returns} for a dict of column -> value."""',
        "",
        f"_MISSING_NUMBERS = {tuple(NUMERIC_MISSING)!r}",
        f"_MISSING_TEXT = {tuple(MISSING_CELLS)!r}",
        "",
        "",
        "def _number(value):",
        "    if value is None or str(value).strip() in _MISSING_NUMBERS:",
        "        return None",
        "    if isinstance(value, str) and value.count(',') == 1 and '.' not in value:",
        "        value = value.replace(',', '.')  # a decimal comma, as dtree predict reads a ; file's",
        "    number = float(value)",
        "    return None if number != number else number",
        "",
        "",
        "def _text(value):",
        "    if value is None:",
        "        return None",
        "    text = str(value).strip()",
        "    if text.lower() in ('true', 'false'):  # true and false in any case, as dtree predict reads them",
        "        return text.lower()",
        "    return None if text in _MISSING_TEXT else text",
        "",
        "",
        "def _within(value, low, high, missing):",
        "    number = _number(value)",
        "    if number is None:",
        "        return missing",
        "    return (low is None or number > low) and (high is None or number <= high)",
        "",
        "",
        *(_DATED if any(c.time for rule in ruleset.rules for c in rule.conditions) else []),
        f"def predict(row: dict) -> {'float' if regression else 'str'}:",
    ]
    for rule in ruleset.rules:
        tests = []
        for c in rule.conditions:
            value = f"row.get({c.attribute!r})"
            if c.time:
                low, high = _date_bounds(c)
                after, until = _instant_bounds(c)
                tests.append(f"_dated({value}, {low!r}, {high!r}, {c.missing}, {after!r}, {until!r})")
            elif not c.is_nominal:
                low, high = ("None" if v is None else _number(v) for v in c.bounds(ruleset.single))
                tests.append(f"_within({value}, {low}, {high}, {c.missing})")
            elif c.missing:
                tests.append(f"_text({value}) not in {_folded(_other_values(ruleset, c))!r}")
            else:
                tests.append(f"_text({value}) in {_folded(c.values)!r}")
        condition = " and ".join(tests) or "True"
        lines.append(f"    if {condition}:")
        lines.append(f"        return {_predicted_literal(ruleset, rule, repr)}")
    lines.append(f"    return {_predicted_literal(ruleset, None, repr)}")
    return "\n".join(lines) + "\n"


def _sql_list(d: Dialect, values) -> str:
    return "(" + ", ".join(d.string(v) for v in values) + ")"


def _sql_missing_number(d: Dialect, column: str) -> str:
    """True where a numeric column's value is missing: NULL, or text ``dtree predict`` reads as
    missing (a TEXT column of ``sqlite3 .import`` holds '' for an empty cell, not NULL)."""
    return f"({column} IS NULL OR {d.number_text(column)} IN {_sql_list(d, NUMERIC_MISSING)})"


def _sql_infinite(d: Dialect, column: str, sign: str) -> str:
    """True where the value is written as an infinity of ``sign`` ('+' or '-'), which ``dtree predict``
    reads as one (``inf``, ``infinity``, any case) and a CAST may not (SQLite reads 0)."""
    words = ("inf", "+inf", "infinity", "+infinity") if sign == "+" else ("-inf", "-infinity")
    return f"LOWER({d.number_text(column)}) IN {_sql_list(d, words)}"


def _sql_numeric_condition(d: Dialect, c, single: bool = False) -> str:
    """``low < value <= high`` of a present value, an infinity written as text included (thresholds
    are finite: +inf is above every one, -inf at most every one); marked ``missing``: or missing.
    Where a CAST of other text fails (``Dialect.guarded``), a CASE reaches it with numbers only."""
    column = d.identifier(c.attribute)
    number, above, below = d.number(column), _sql_infinite(d, column, "+"), _sql_infinite(d, column, "-")
    missing = _sql_missing_number(d, column)
    low, high = c.bounds(single)  # (single precision: the 64-bit bounds that decide alike)
    if d.guarded:
        compared = ([f"{number} > {_number(low)}"] if low is not None else []) + (
            [f"{number} <= {_number(high)}"] if high is not None else []
        )
        cases = ((missing, c.missing), (above, high is None), (below, low is None))
        whens = " ".join(f"WHEN {test} THEN {'1 = 1' if holds else '1 = 0'}" for test, holds in cases)
        return f"(CASE {whens} ELSE {' AND '.join(compared)} END)"
    tests = []
    if low is not None:
        tests.append(f"({number} > {_number(low)} AND NOT {below} OR {above})")
    if high is not None:
        tests.append(f"({number} <= {_number(high)} AND NOT {above} OR {below})")
    if c.missing:
        return f"({missing} OR ({' AND '.join(tests)}))"
    return " AND ".join([f"NOT {missing}", *tests])


def _sql_date_condition(d: Dialect, c) -> str:
    """``low < value <= high`` compared as text of the date format (which sorts as the dates do);
    marked ``missing``: or missing (NULL, '' or '?')."""
    column = d.identifier(c.attribute)
    text = d.text(column)
    low, high = _date_bounds(c)
    missing = f"({column} IS NULL OR {text} IN {_sql_list(d, MISSING_CELLS)})"
    if d.instants:  # compared with the thresholds' own instants (a day printed may be a midpoint)
        low, high = _instant_bounds(c)
    when = d.instant
    tests = [f"{when(text)} > {when(d.string(low))}"] if low is not None else []
    tests += [f"{when(text)} <= {when(d.string(high))}"] if high is not None else []
    if c.missing:
        return f"({missing} OR ({' AND '.join(tests)}))"
    return " AND ".join([f"NOT {missing}", *tests])


def _sql_condition(ruleset: RuleSet, d: Dialect, c) -> str:
    if c.is_nominal:
        return _sql_nominal_condition(ruleset, d, c)
    return _sql_date_condition(d, c) if c.time else _sql_numeric_condition(d, c, ruleset.single)


def _sql_nominal_condition(ruleset: RuleSet, d: Dialect, c) -> str:
    """``TRIM(col) IN (values)`` (NULL, '' and '?' are in no list); marked ``missing``: every value
    but the attribute's others, NULL included."""
    column = d.identifier(c.attribute)
    text = _sql_text(d, ruleset, c, column)
    if not c.missing:
        return f"{text} IN {_sql_list(d, _folded(c.values))}"
    others = _folded(_other_values(ruleset, c))
    if not others:
        return "1 = 1"
    return f"({column} IS NULL OR {text} NOT IN {_sql_list(d, others)})"


def sql(ruleset: RuleSet, dialect: str = DEFAULT_DIALECT) -> str:
    """A ``CASE WHEN ... END`` expression in ``dialect`` (``sql_dialects``); a missing value satisfies
    no condition but those marked ``missing``."""
    d = Dialect(dialect)
    check_names([c.attribute for rule in ruleset.rules for c in rule.conditions], d)
    lines = ["CASE"]
    for rule in ruleset.rules:
        tests = [_sql_condition(ruleset, d, c) for c in rule.conditions]
        lines.append(f"  WHEN {' AND '.join(tests) or '1 = 1'} THEN {_predicted_literal(ruleset, rule, d.string)}")
    lines.append(f"  ELSE {_predicted_literal(ruleset, None, d.string)}")
    lines.append("END")
    return "\n".join(lines) + "\n"


def render(ruleset: RuleSet, fmt: str, dialect: str = DEFAULT_DIALECT) -> str:
    from dtcli.render.latex import latex

    if fmt == "sql":
        return sql(ruleset, dialect)
    writers = {"text": text, "json": dumps_rules, "csv": to_csv, "markdown": markdown, "latex": latex}
    return {**writers, "python": python}[fmt](ruleset)
