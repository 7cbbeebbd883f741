"""``dtcli.gain``'s work: the options checked as ``dtree gain`` checks them, the table read, the report computed.

The same steps, messages and core calls as the command (``cli/gain.py``): multiway
reports (``-a id3``, with --costs, --thresholds-all, --attribute), J48's report (``-a c45``),
CART's binary candidates (``-a cart`` or ``splits="binary"``) and, for a numeric target,
each attribute's best split by decrease in mean squared error; the attribute starred is
the one the tree grower splits on there (``grow.grower.node_choice``).
"""

from __future__ import annotations

from typing import NamedTuple

from dtcli.errors import DataError, ParameterError
from dtcli.explain.checks import gain_criterion, left_out, refuse_for_regression


class Context(NamedTuple):
    """What ``explained`` (--explain) works from: the table, its rows, the --where conditions, the costs, and
    ``again()``, the report again with every cut of the numeric attributes (as --explain scores them)."""

    table: object
    rows: object
    parsed: list
    costs: object
    again: object = None


class Asked(NamedTuple):
    """The gain options after the command's checks and defaults."""

    algorithm: str
    binary: bool
    criterion: str
    thresholds: str
    min_leaf: float | None
    all_cuts: bool
    costs: str | None
    cost_measure: str
    nunez_w: float
    attributes: tuple


def asked(algorithm, splits, criterion, thresholds, min_leaf, all_cuts, costs, cost_measure, nunez_w, attributes):
    """The options as ``dtree gain`` takes them (its defaults, its refusals and messages); ``min_leaf`` and
    ``nunez_w`` already checked as numbers (``options.checked``)."""
    from dtcli.api.options import algorithm_name
    from dtcli.induction.names import CRITERION_NAMES, THRESHOLDS

    if splits not in (None, "multiway", "binary"):
        raise ParameterError(f"--splits {splits!r}: choose from multiway, binary")
    name = ("cart" if splits == "binary" else "id3") if algorithm is None else algorithm_name(algorithm)
    binary = name == "cart" if splits is None else splits == "binary"
    if criterion is not None and criterion not in CRITERION_NAMES:
        raise ParameterError(f"--criterion {criterion!r}: choose from {', '.join(CRITERION_NAMES)}")
    if thresholds is not None and thresholds not in THRESHOLDS:
        raise ParameterError(f"--thresholds {thresholds!r}: choose from {', '.join(sorted(THRESHOLDS, reverse=True))}")
    if not isinstance(all_cuts, bool):
        raise ParameterError(f"--thresholds-all is a flag: give True or False, got {all_cuts!r}")
    if name == "c45":
        if binary:
            raise ParameterError("-a c45 splits one branch per nominal value: leave out --splits binary")
        for given, flag in ((costs, "--costs"), (all_cuts, "--thresholds-all")):
            if given:
                raise ParameterError(f"{flag} works with ID3's scores: leave out -a c45, or leave out {flag}")
    if name == "id3" and min_leaf is not None:
        raise ParameterError("--min-leaf applies to -a c45 and -a cart")
    if min_leaf is not None and min_leaf < 0:
        raise ParameterError(f"--min-leaf {min_leaf:g}: give a number of cases of 0 or more")
    criterion = gain_criterion(criterion, binary, costs, name)
    measure = "ratio" if cost_measure is None else cost_measure  # (checked with the costs, as the command does)
    w = 1.0 if nunez_w is None else nunez_w
    chosen = texts(attributes, "--attribute")
    thresholds = thresholds or ("data" if name == "c45" else "midpoint")
    costs = None if costs is None else str(costs)
    return Asked(name, binary, criterion, thresholds, min_leaf, all_cuts, costs, measure, w, chosen)


def texts(value, option: str) -> tuple:
    """A name (or condition) or a list of them as a tuple of strings; ParameterError for anything else."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ParameterError(f"{option}: give a string or a list of strings, got {value!r}")


def scored(table, conditions: list[str], options: Asked, task):
    """(kind, report, where, context): the report ``dtree gain`` prints for ``table``'s rows satisfying
    ``conditions``; kind "multiway", "binary" or "regression" (report: (stats, found, subset, chosen));
    ``context`` what --explain derives from (None: c45 and regression, which have no derivation)."""
    from dtcli.induction.search.c45 import Thresholds
    from dtcli.model.where import named, parse_condition, select

    if table.is_regression and task is None and options.algorithm != "cart":
        from dtcli.induction.algorithms import numeric_class_error

        raise numeric_class_error(table, options.algorithm)
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    parsed = named(table, [parse_condition(c) for c in conditions])
    rows = select(table, parsed)
    if len(rows) == 0:
        raise ParameterError(f"{table.source}: no row satisfies --where {' and '.join(conditions)}")
    where = [str(c) for c in parsed]
    fixed = tuple(c.name for c in parsed if c.op == "=")
    if table.is_regression:
        if options.algorithm == "c45":
            raise ParameterError("-a c45 classifies: a numeric target needs -a cart, or --task classification")
        refuse_for_regression(options.attributes, options.costs, options.all_cuts)
        from dtcli.explain.tree_report import regression_found
        from dtcli.induction.search.regression import regression_report

        subset = table.take(rows)
        stats, found = regression_report(subset)
        found, chosen = regression_found(table, rows, found, fixed, options.min_leaf)
        return "regression", (stats, found, subset, chosen), where, None
    hidden = left_out(table, options.attributes, fixed)
    place = Thresholds(table, options.thresholds).place
    if options.binary or options.algorithm == "c45":
        from dtcli.explain.tree_report import tree_report

        report = tree_report(table, rows, options.algorithm, options.binary, options.criterion, options.thresholds,
                             options.min_leaf, fixed, place, hidden, parsed, options.all_cuts)  # fmt: skip
        context = Context(table, rows, parsed, None) if options.binary else None  # (c45: no derivation)
        return ("binary" if options.binary else "multiway"), report, where, context
    report, costs = _multiway(table, rows, parsed, fixed, place, hidden, options)
    cuts = options._replace(all_cuts=True)
    again = lambda: _multiway(table, rows, parsed, fixed, place, hidden, cuts)[0]  # noqa: E731
    return "multiway", report, where, Context(table, rows, parsed, costs, again)


def _multiway(table, rows, parsed, fixed, place, hidden, options: Asked):
    """ID3's report: information gain (or the criterion), with --costs and --thresholds-all."""
    from dtcli.explain.report import gain_report
    from dtcli.model.where import select

    costs = None
    if options.costs:
        from dtcli.induction.criteria.costs import AttributeCosts
        from dtcli.io.costs import read_costs

        read = read_costs(options.costs, [a.name for a in table.attributes])
        costs = AttributeCosts(read, options.cost_measure, options.nunez_w)
    criterion = options.criterion
    report = gain_report(table, criterion, rows, exclude=fixed, place=place, all_cuts=options.all_cuts, costs=costs)
    if parsed:
        from dtcli.explain.tree_path import off_path

        def choice_at(taken):
            above = tuple(c.name for c in taken if c.op == "=")
            found = gain_report(table, criterion, select(table, taken), above, place, costs=costs)
            if found.chosen is None:
                return None
            row = next(r for r in found.attributes if r.name == found.chosen)
            return row.name, "nominal" if row.threshold is None else "numeric", row.threshold, None

        report.path_note = off_path(parsed, choice_at)
    report.partial = bool(hidden)
    report.attributes = [row for row in report.attributes if row.name not in hidden]
    return report, costs


EXPLAIN_FORMATS = ("text", "markdown", "latex")
MAX_DIGITS = 12


def explained(kind: str, report, context: Context | None, fmt: str, digits: int) -> str:
    """``dtree gain --explain --explain-format FMT --digits N``: the worked computation of ``report``."""
    if context is None:
        what = "-a c45" if kind == "multiway" else "a numeric target"
        raise ParameterError(f"--explain works with ID3's scores and CART's binary splits, not {what}")
    if fmt not in EXPLAIN_FORMATS:
        raise ParameterError(f"--explain-format {fmt!r}: choose from {', '.join(EXPLAIN_FORMATS)}")
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= MAX_DIGITS:
        raise ParameterError(f"--digits {digits}: give a number of decimals from 0 to {MAX_DIGITS}")
    from dtcli.render.counts import signs
    from dtcli.render.explain import markdown_document, text_document
    from dtcli.render.explain_latex import latex_document

    where = tuple(str(c) for c in context.parsed)
    subscript = tuple(c.value for c in context.parsed if c.op == "=")
    pair = signs(report.classes)  # (Mitchell's positive class first)
    order = None if pair is None else pair + tuple(c for c in range(len(report.classes)) if c not in pair)
    if kind == "binary":
        from dtcli.explain.worked_binary import explain_binary

        derivation = explain_binary(report, digits, where, subscript, order)
    else:
        from dtcli.explain.worked import explain_gain

        report = context.again() if context.again is not None else report
        derivation = explain_gain(context.table, context.rows, report, digits, where, subscript, order, context.costs)
    write = {"text": text_document, "markdown": markdown_document, "latex": latex_document}[fmt]
    return write(derivation)
