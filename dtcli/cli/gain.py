"""``dtree gain``: the numbers behind a split, one row per attribute."""

from __future__ import annotations

import click

from dtcli.cli.common import cost_options, data_options, output_option, task_option, write_output
from dtcli.cli.explain import explain_options
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option
from dtcli.cli.weighting import weighting_options
from dtcli.errors import DataError, ParameterError
from dtcli.induction.names import CRITERION_NAMES, THRESHOLDS
from dtcli.pipeline.load import warn_identifiers
from dtcli.plain.gain import plain_gain


@click.command("gain", cls=Command)
@data_options
@click.option(
    "-w",
    "--where",
    "conditions",
    metavar="COND",
    multiple=True,
    help="Only rows where COND holds, e.g. Outlook=Sunny (also !=, <, <=, >, >=). Repeat for a conjunction.",
)
@click.option(
    "-a",
    "--algorithm",
    type=click.Choice(["id3", "c45", "cart"]),
    help="Whose rules score the attributes and choose, as 'dtree train -a' does at the node: id3 (the default, "
    "train's too): one branch per value, gain; c45: J48's gain ratio among attributes of at least average "
    "gain, numeric cuts with the MDL correction, -m 2; cart: binary splits (as --splits binary), Gini.",
)
@click.option(
    "--splits",
    type=click.Choice(["multiway", "binary"]),
    help="multiway: one branch per nominal value (default); binary: CART's splits A in {values} and "
    "A <= t, each attribute's best (--thresholds-all: every one).",
)
@click.option(
    "-c",
    "--criterion",
    type=click.Choice(CRITERION_NAMES),
    help="Which score sorts the table and picks the split: default gain (gini with binary splits); entropy is "
    "gain; cart (Zaki's measure) needs binary splits, gain-ratio multiway ones.",
)
@click.option(
    "--thresholds",
    type=click.Choice(sorted(THRESHOLDS, reverse=True)),
    help="Where a numeric attribute's threshold goes: midpoint between the two values at the "
    "best cut, or the largest training value not above it (as C4.5 prints it). Default: data with "
    "-a c45, else midpoint.",
)
@click.option(
    "-m",
    "--min-leaf",
    type=float,
    metavar="M",
    help="-a c45 or cart: a split needs two branches (c45) or both sides (cart) with M cases, as in "
    "'dtree train -m M' (default: c45 2, cart 1).",
)
@click.option(
    "--thresholds-all",
    is_flag=True,
    help="List every candidate cut of each numeric attribute with its gain (binary splits: every split "
    "CART considers, not each attribute's best).",
)
@cost_options("Attribute costs, CSV lines 'attribute,cost' (others cost 1).")
@task_option(
    "How the target is read, as 'dtree train' reads it. auto (default): a numeric target is -a cart's "
    "regression and refused by ID3 and C4.5; classification: its values are classes; regression: each "
    "attribute scored by the decrease in mean squared error of its best binary split.",
    auto=True,
)
@format_option(("table", "json", "csv"), "table", "table for people; json or csv for scripts (full precision).")
@explain_options
@output_option("Write the table, JSON or CSV (-f) to FILE instead of standard output.")
@click.option("-q", "--quiet", is_flag=True, help="Do not warn of identifier-like columns or of classes spelt alike.")
@weighting_options
def command(
    source,
    conditions,
    algorithm,
    splits,
    criterion,
    thresholds,
    min_leaf,
    thresholds_all,
    costs,
    task,
    fmt,
    explain,
    output,
    quiet,
    weighting,
):
    """Show how well each attribute splits DATA on the target.

    For every attribute: the class counts of each branch, the weighted
    entropy after the split, information gain, split information, gain ratio
    and Gini gain; the attribute marked with * is the one 'dtree train' with
    the same -a (id3 by default, c45 or cart) and options splits on there.
    Above the table: the entropy and class counts of the whole set. Use
    --where to look one level down, as a tree would.

    A numeric attribute is scored at its best cut (A <= t); --thresholds-all
    lists every cut, marking those where the class changes (Mitchell 3.7.2).
    With --costs, each attribute's cost and cost score are shown, and the
    cost score picks the split (Mitchell 3.7.5).

    Example: dtree gain sample_data/weather.csv --ignore Day --where Outlook=Sunny
    """
    from dtcli.model.where import parse_condition

    task = None if task == "auto" else task
    algorithm = algorithm or ("cart" if splits == "binary" else "id3")
    binary = algorithm == "cart" if splits is None else splits == "binary"
    check_algorithm(algorithm, binary, costs, thresholds_all, explain, min_leaf)
    criterion = check_criterion(criterion, binary, costs, algorithm)
    asked_thresholds, thresholds = thresholds, thresholds or ("data" if algorithm == "c45" else "midpoint")
    note = not quiet and algorithm == "id3" and not binary and asked_thresholds is None
    missing_note = not quiet and algorithm == "id3" and not binary
    parsed = [parse_condition(c) for c in conditions]
    plain = algorithm == "id3" and not (
        binary or costs.path or explain.on or explain.attributes or task == "regression" or weighting.wanted
    )
    numeric_class = task == "classification"
    if plain:
        report = plain_gain(source, parsed, criterion, thresholds, thresholds_all, quiet, numeric_class)
        if report is not None:  # (a small plain file, read and scored without numpy: the same output)
            return emit_gain(report, [str(c) for c in parsed], fmt, output, note, missing_note)
    from dtcli.explain.report import gain_report
    from dtcli.induction.search.c45 import Thresholds
    from dtcli.model.where import named, select

    # as train reads it: a numeric target is CART's regression, refused by ID3 and C4.5, unless --task says otherwise
    table = source.load(task or "auto", fingerprint=False, weighting=weighting)
    if table.schema.target.time:
        from dtcli.induction.algorithms import date_target_error

        raise date_target_error(table)
    if table.is_regression and task is None and algorithm != "cart":
        from dtcli.induction.algorithms import numeric_class_error

        raise numeric_class_error(table, algorithm)
    if table.n_rows and not table.labelled().any():  # (as train refuses it)
        raise DataError(f"{table.source}: every row lacks a value in the target column {table.schema.target.name!r}")
    warn_identifiers(table, quiet)
    unlabelled = int(table.n_rows - table.labelled().sum())
    if unlabelled and not quiet:  # (scored without them, as train leaves them out)
        from dtcli.render.console import warn

        warn(f"{table.source}: {unlabelled} row(s) without a class value were left out")
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    parsed = named(table, parsed)  # (as the table writes its names and values)
    rows = select(table, parsed)
    if len(rows) == 0:
        raise ParameterError(f"{table.source}: no row satisfies --where {' and '.join(conditions)}")
    if table.is_regression:
        from dtcli.induction.search.regression import regression_report
        from dtcli.render.gain import regression_output

        if algorithm == "c45":
            raise ParameterError("-a c45 classifies: a numeric target needs -a cart, or --task classification")
        from dtcli.explain.checks import refuse_for_regression
        from dtcli.explain.tree_report import regression_found

        refuse_for_regression(explain.attributes, costs.path, thresholds_all)

        subset = table.take(rows)
        stats, found = regression_report(subset)
        fixed = tuple(c.name for c in parsed if c.op == "=")
        found, chosen = regression_found(table, rows, found, fixed, min_leaf)
        write_output(output, regression_output(stats, found, subset, [str(c) for c in parsed], fmt, chosen))
        return
    fixed = tuple(c.name for c in parsed if c.op == "=")
    shown = explain.left_out(table, fixed)  # (--attribute: every attribute is scored, these are not shown)
    place = Thresholds(table, thresholds).place
    where = [str(c) for c in parsed]
    if explain.on:
        explain.check(fmt)
    if binary or algorithm == "c45":
        from dtcli.explain.tree_report import tree_report

        report = tree_report(
            table, rows, algorithm, binary, criterion, thresholds, min_leaf, fixed, place, shown, parsed, thresholds_all
        )
        if binary:
            return binary_output(report, explain, fmt, parsed, where, output)
        return emit_gain(report, where, fmt, output)
    attribute_costs = costs.load(table)
    wanted = thresholds_all or explain.on
    report = gain_report(table, criterion, rows, exclude=fixed, place=place, all_cuts=wanted, costs=attribute_costs)
    if parsed:
        from dtcli.explain.tree_path import off_path
        from dtcli.plain.gain import report_choice

        def choice_at(taken):
            above = tuple(c.name for c in taken if c.op == "=")
            return report_choice(
                gain_report(table, criterion, select(table, taken), above, place, costs=attribute_costs)
            )

        report.path_note = off_path(parsed, choice_at)
    report.partial = bool(shown)
    report.attributes = [row for row in report.attributes if row.name not in shown]
    if explain.on:
        write_output(output, explain.write(table, rows, report, parsed, attribute_costs))
        return id3_notes(report, note, missing_note)
    emit_gain(report, where, fmt, output, note, missing_note)


def check_algorithm(algorithm: str, binary: bool, costs, thresholds_all: bool, explain, min_leaf) -> None:
    """Refuse the options that do not go with ``algorithm``."""
    if algorithm == "c45":
        if binary:
            raise ParameterError("-a c45 splits one branch per nominal value: leave out --splits binary")
        for given, flag in ((costs.path, "--costs"), (thresholds_all, "--thresholds-all"), (explain.on, "--explain")):
            if given:
                raise ParameterError(f"{flag} works with ID3's scores: leave out -a c45, or leave out {flag}")
    if algorithm == "id3" and min_leaf is not None:
        raise ParameterError("--min-leaf applies to -a c45 and -a cart")
    if min_leaf is not None and min_leaf < 0:
        raise ParameterError(f"--min-leaf {min_leaf:g}: give a number of cases of 0 or more")


def check_criterion(criterion: str | None, binary: bool, costs, algorithm: str = "id3") -> str:
    """The criterion to use (``dtcli.gain``'s rule: gain, gain ratio for c45, gini for binary splits)."""
    from dtcli.explain.checks import gain_criterion

    return gain_criterion(criterion, binary, costs.path, algorithm)


def binary_output(report, explain, fmt: str, parsed, where: list[str], output) -> None:
    """The binary candidates as a table, JSON, CSV or a derivation."""
    from dtcli.render import gain_binary
    from dtcli.render.console import console, rendered

    if explain.on:
        write_output(output, explain.write_binary(report, parsed))
    elif fmt == "json":
        write_output(output, gain_binary.to_json(report, where))
    elif fmt == "csv":
        write_output(output, gain_binary.to_csv(report))
    elif output and output != "-":
        write_output(output, rendered(*gain_binary.text(report, where)))
    else:
        for part in gain_binary.text(report, where):
            console.print(part)


def emit_gain(report, where: list[str], fmt: str, output, note: bool = False, missing_note: bool = False) -> None:
    """A multiway report on standard output, or with ``-o FILE`` in that file (atomically); ``note``:
    say after it where ID3's numeric cuts come from, ``missing_note`` how its missing values count
    (``id3_notes``)."""
    if output and output != "-":
        from dtcli.render.gain import gain_text

        write_output(output, gain_text(report, where, fmt))
    else:
        from dtcli.render.gain import write_gain

        write_gain(report, where, fmt)
    id3_notes(report, note, missing_note)


def id3_notes(report, cuts: bool, missing: bool) -> None:
    """``id3_cuts_note`` with ``cuts``; with ``missing``, when an attribute scored has missing values, a
    line saying that 'dtree train -a id3' refuses them unless --missing says how, and whose choice * is."""
    if cuts:
        id3_cuts_note(report)
    if missing and any(row.missing > 0 for row in report.attributes):
        from dtcli.render.console import notice

        notice(
            "Note: some values are missing, which 'dtree train -a id3' refuses unless --missing says how to "
            "treat them; these scores weigh them as C4.5 does, and * is the choice of --missing fractional"
        )


def id3_cuts_note(report) -> None:
    """When ID3's table scores numeric attributes without --thresholds: a line on stderr that says the
    cuts are midpoints, the ones ``dtree train -a id3 --thresholds midpoint`` splits at (without
    --thresholds, train refuses numeric attributes, so the * is that command's choice)."""
    if any(row.threshold is not None for row in report.attributes):
        from dtcli.render.console import notice

        notice(
            "Note: ID3 splits numeric attributes only with --thresholds; these cuts are midpoints, and * is the "
            "choice of 'dtree train -a id3 --thresholds midpoint' (give --thresholds data for C4.5's cuts)"
        )
