"""``dtree rules``: a model as IF-THEN rules, optionally post-pruned, in several formats."""

from __future__ import annotations

import click

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import data_limit_options, format_option, pessimistic_options
from dtcli.render.rules import FORMATS as RULE_FORMATS
from dtcli.render.sql_dialects import DEFAULT_DIALECT, DIALECTS


@click.command("rules", cls=Command)
@click.argument("model", metavar="MODEL")
@click.option(
    "--prune",
    "prune",
    is_flag=True,
    help="Rule post-pruning on the training data (--data): drop preconditions while the "
    "pessimistic accuracy estimate does not get worse, remove duplicates, sort, add a default.",
)
@click.option(
    "--data",
    metavar="DATA",
    help="The training data, for --prune; given, the rows the rules classify otherwise than the tree "
    "(a missing value the tree spreads over several branches) are counted, in one warning.",
)
@pessimistic_options(
    "Confidence factor of the pessimistic estimate (as in C4.5).",
    "The upper error bound: Weka J48's or Quinlan's C4.5 R8 table.",
)
@click.option("--trace", is_flag=True, help="Print every precondition dropped and the estimates compared (stderr).")
@format_option(
    RULE_FORMATS,
    "text",
    "text for people; json (a rule set 'dtree predict' can apply); csv; markdown (a table); latex "
    "(an enumerate of IF ... THEN items for notes); python (a function predict(row)); sql (a CASE WHEN expression).",
)
@click.option(
    "--dialect",
    type=click.Choice(DIALECTS),
    help=f"The SQL dialect of -f sql (default {DEFAULT_DIALECT}): names and strings quoted, and casts "
    "written, as it reads them (postgresql: E'...' for a backslash; mysql: `names`, hex for a backslash); "
    "ansi is standard SQL.",
)
@format_in_option
@data_limit_options
@output_option(
    "Write the rules to FILE instead of standard output; without -f its extension picks the format "
    "(.txt, .json, .csv, .md, .tex, .py, .sql)."
)
def command(model, prune, data, pessimistic, trace, fmt, dialect, format_in, limits, output):
    """Turn MODEL (a tree from 'dtree train -o') into IF-THEN rules, one per leaf.

    Each rule lists its conditions (several tests of one numeric attribute
    merged into an interval such as 22.5 < Age <= 45; nominal subsets as
    Car in {Sports, SUV}), its class, the training cases it covers, its
    accuracy and class distribution; rules are numbered R1, R2, ... and the
    last is the default. A row whose tested value is missing satisfies no
    condition, but those marked 'or missing': the branch a tree grown with
    a fill-in policy (CART's default) sends missing values down. A C4.5 tree
    spreads such a row over every branch, which rules cannot: a warning says
    so (with --data, how many of its rows the rules classify otherwise).
    A regression tree's rules predict numbers. The JSON form can be applied
    with 'dtree predict RULES.json DATA'.

    Example: dtree rules weather.json --prune --data sample_data/weather.csv
    """
    from dtcli.errors import ParameterError
    from dtcli.induction.rules import extract, prune_rules
    from dtcli.model.rules import RuleSet
    from dtcli.render.rules import render

    if dialect is not None and fmt != "sql":
        raise ParameterError(f"--dialect is for SQL output; give -f sql, or leave out --dialect (with -f {fmt})")
    loaded = load_model(model, limits)
    tree = None if isinstance(loaded, RuleSet) else loaded
    ruleset = loaded if tree is None else extract(tree)
    if prune and not data:
        raise ParameterError("--prune needs the training data: --data DATA")
    if prune and ruleset.schema.is_regression:
        raise ParameterError("rule post-pruning needs classes; this model predicts numbers (leave out --prune)")
    encoded = None
    if data:
        from dtcli.io.encode import encode_for_schema, text_columns
        from dtcli.io.read import read_data

        raw = read_data(data, format_in, text_columns(ruleset.schema), limits)
        encoded = encode_for_schema(raw, ruleset.schema)
    if prune:
        if not encoded.has_target:
            from dtcli.model.colnames import near_clause

            near = near_clause(ruleset.schema.target.name, list(raw.frame.columns))
            raise ParameterError(f"{data}: no column {ruleset.schema.target.name!r}{near}; pruning needs the classes")
        from dtcli.induction.params import check_pessimistic

        check_pessimistic(pessimistic, encoded.table.is_regression)
        ruleset, drops = prune_rules(ruleset, encoded.table, pessimistic.cf, pessimistic.error_bound)
        if trace:
            from dtcli.render.console import info

            info(_trace(drops).rstrip("\n"))
    text = render(ruleset, fmt, dialect or DEFAULT_DIALECT)  # first: a refusal is the only line
    if tree is not None:
        _missing_warning(tree, ruleset, data, encoded)
    if fmt == "sql":
        _long_names_warning(ruleset, dialect or DEFAULT_DIALECT)
    write_output(output, text)


def _long_names_warning(ruleset, dialect: str) -> None:
    """One line when PostgreSQL reads some column names shortened (as it named the columns)."""
    from dtcli.render.console import warn
    from dtcli.render.sql_dialects import POSTGRESQL_NAME_BYTES, Dialect, check_names

    long = check_names([c.attribute for rule in ruleset.rules for c in rule.conditions], Dialect(dialect))
    if len(long) == 1:
        warn(
            f"column name {long[0]!r} is longer than PostgreSQL's {POSTGRESQL_NAME_BYTES} bytes: PostgreSQL reads "
            f"it as its first {POSTGRESQL_NAME_BYTES} bytes, as it named the column of a table made with it"
        )
    elif long:
        warn(
            f"{len(long)} column names, such as {long[0]!r}, are longer than PostgreSQL's {POSTGRESQL_NAME_BYTES} "
            f"bytes: PostgreSQL reads them as their first {POSTGRESQL_NAME_BYTES} bytes, as it named the columns "
            "of a table made with them"
        )


def _missing_warning(tree, ruleset, data, encoded) -> None:
    """One line when the rules may classify a row with a missing value otherwise than the tree: with
    DATA, how many of its rows they do (nothing when none); without, that they may (not for a tree
    grown with ``reject``, whose training rows have no missing values)."""
    from dtcli.induction.rules import missing_disagreements, spreads_missing
    from dtcli.render.console import warn

    what = "predict" if tree.schema.is_regression else "classify"
    why = (
        "the tree sends a row with a missing value down every branch at once (fractional cases), "
        "and a rule's condition on that value does not hold"
    )
    if not spreads_missing(tree):
        return  # missing values take the heaviest branch: the rules' marked conditions do the same
    if encoded is None:
        if tree.parameters.get("missing") == "reject":
            return  # its training rows had no missing value: none of them is classified otherwise
        warn(
            f"the rules may {what} a row with a missing value otherwise than the tree: {why} "
            "(--data DATA counts such rows)"
        )
        return
    differ, rows = missing_disagreements(tree, ruleset, encoded.table)
    if differ:
        warn(f"{data}: the rules {what} {differ} of {rows} rows otherwise than the tree: {why}")


def _trace(drops) -> str:
    if not drops:
        return "Rule post-pruning: no precondition could be dropped without a worse estimate\n"
    lines = ["Rule post-pruning (pessimistic accuracy estimate; no worse is enough):"]
    for d in drops:
        lines.append(f"  R{d.rule}: dropped {d.condition}: {d.before:.4f} -> {d.after:.4f}")
    return "\n".join(lines) + "\n"
