"""``dtree gain``: the numbers behind a split, one row per attribute."""

from __future__ import annotations

import click

from dtcli.cli.common import cost_options, data_options, task_option, warn_identifiers
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option
from dtcli.errors import DataError, ParameterError
from dtcli.induction.criteria.impurity import CRITERIA
from dtcli.induction.params import THRESHOLDS


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
    "-c",
    "--criterion",
    type=click.Choice(sorted(c for c in CRITERIA if c != "cart")),  # cart's measure needs binary splits
    default="gain",
    show_default=True,
    help="Which score sorts the table and picks the split (entropy is gain).",
)
@click.option(
    "--thresholds",
    type=click.Choice(sorted(THRESHOLDS, reverse=True)),
    default="midpoint",
    show_default=True,
    help="Where a numeric attribute's threshold goes: midpoint between the two values at the "
    "best cut, or the largest training value not above it (as C4.5 prints it).",
)
@click.option(
    "--thresholds-all", is_flag=True, help="List every candidate cut of each numeric attribute with its gain."
)
@cost_options("Attribute costs, CSV lines 'attribute,cost' (others cost 1).")
@task_option(
    "regression: a numeric target, scored by the decrease in mean squared error of each "
    "attribute's best binary split (default: classification)."
)
@format_option(("table", "json", "csv"), "table", "table for people; json or csv for scripts (full precision).")
@click.option("-q", "--quiet", is_flag=True, help="Do not warn of identifier-like columns.")
def command(source, conditions, criterion, thresholds, thresholds_all, costs, task, fmt, quiet):
    """Show how well each attribute splits DATA on the target.

    For every attribute: the class counts of each branch, the weighted
    entropy after the split, information gain, split information, gain ratio
    and Gini gain; the attribute the criterion would choose is marked with *.
    Above the table: the entropy and class counts of the whole set. Use
    --where to look one level down, as a tree would.

    A numeric attribute is scored at its best cut (A <= t); --thresholds-all
    lists every cut, marking those where the class changes (Mitchell 3.7.2).
    With --costs, each attribute's cost and cost score are shown, and the
    cost score picks the split (Mitchell 3.7.5).

    Example: dtree gain sample_data/weather.csv --ignore Day --where Outlook=Sunny
    """
    from dtcli.induction.apply.report import gain_report
    from dtcli.induction.search.c45 import Thresholds
    from dtcli.model.where import parse_condition, select
    from dtcli.render import gain as render
    from dtcli.render.console import console

    criterion = "gain" if criterion == "entropy" else criterion
    parsed = [parse_condition(c) for c in conditions]
    table = source.load(task or "classification")
    warn_identifiers(table, quiet)
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    rows = select(table, parsed)
    if len(rows) == 0:
        raise ParameterError(f"{table.source}: no row satisfies --where {' and '.join(conditions)}")
    if table.is_regression:
        from dtcli.induction.search.regression import regression_report
        from dtcli.render.gain import regression_output

        subset = table.take(rows)
        console.data(regression_output(*regression_report(subset), subset, [str(c) for c in parsed], fmt))
        return
    fixed = tuple(c.name for c in parsed if c.op == "=")
    place = Thresholds(table, thresholds).place
    report = gain_report(
        table, criterion, rows, exclude=fixed, place=place, all_cuts=thresholds_all, costs=costs.load(table)
    )
    where = [str(c) for c in parsed]
    if fmt == "json":
        console.data(render.to_json(report, where))
    elif fmt == "csv":
        console.data(render.to_csv(report))
    else:
        console.print(render.heading(report, where))
        console.print(render.rich_table(report))
        console.print(render.footer(report))
        for cuts in render.cut_tables(report):
            console.print()
            console.print(cuts)
