"""``dtree rules``: a model as IF-THEN rules, optionally post-pruned, in several formats."""

from __future__ import annotations

import click

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option, limit_options, pessimistic_options
from dtcli.render.rules import FORMATS as RULE_FORMATS


@click.command("rules", cls=Command)
@click.argument("model", metavar="MODEL")
@click.option(
    "--prune",
    "prune",
    is_flag=True,
    help="Rule post-pruning on the training data (--data): drop preconditions while the "
    "pessimistic accuracy estimate does not get worse, remove duplicates, sort, add a default.",
)
@click.option("--data", metavar="DATA", help="The training data, for --prune.")
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
@format_in_option
@limit_options
@output_option(
    "Write the rules to FILE instead of standard output; without -f its extension picks the format "
    "(.txt, .json, .csv, .md, .tex, .py, .sql)."
)
def command(model, prune, data, pessimistic, trace, fmt, format_in, limits, output):
    """Turn MODEL (a tree from 'dtree train -o') into IF-THEN rules, one per leaf.

    Each rule lists its conditions (several tests of one numeric attribute
    merged into an interval such as 22.5 < Age <= 45; nominal subsets as
    Car in {Sports, SUV}), its class, the training cases it covers, its
    accuracy and class distribution; rules are numbered R1, R2, ... and the
    last is the default. A row whose tested value is missing satisfies no
    condition. The JSON form can be applied with 'dtree predict RULES.json DATA'.

    Example: dtree rules weather.json --prune --data sample_data/weather.csv
    """
    from dtcli.errors import ParameterError
    from dtcli.induction.apply.rules import extract, prune_rules
    from dtcli.model.rules import RuleSet
    from dtcli.render.rules import render

    loaded = load_model(model, limits)
    ruleset = loaded if isinstance(loaded, RuleSet) else extract(loaded)
    if prune:
        if not data:
            raise ParameterError("--prune needs the training data: --data DATA")
        from dtcli.induction.params import check_pessimistic
        from dtcli.io.encode import encode_for_schema, text_columns
        from dtcli.io.read import read_data

        encoded = encode_for_schema(read_data(data, format_in, text_columns(ruleset.schema), limits), ruleset.schema)
        if not encoded.has_target:
            raise ParameterError(f"{data}: no column {ruleset.schema.target.name!r}; pruning needs the classes")
        check_pessimistic(pessimistic, encoded.table.is_regression)
        ruleset, drops = prune_rules(ruleset, encoded.table, pessimistic.cf, pessimistic.error_bound)
        if trace:
            from dtcli.render.console import info

            info(_trace(drops).rstrip("\n"))
    write_output(output, render(ruleset, fmt))


def _trace(drops) -> str:
    if not drops:
        return "Rule post-pruning: no precondition could be dropped without a worse estimate\n"
    lines = ["Rule post-pruning (pessimistic accuracy estimate; no worse is enough):"]
    for d in drops:
        lines.append(f"  R{d.rule}: dropped {d.condition}: {d.before:.4f} -> {d.after:.4f}")
    return "\n".join(lines) + "\n"
