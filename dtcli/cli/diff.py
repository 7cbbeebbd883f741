"""``dtree diff``: are two trees (or two rule sets) the same, and if not, where do they first differ.

Exit status as diff(1): 0 equivalent, 1 different, 2 trouble (an unreadable, foreign or damaged
model, a tree against a rule set, a bad option or data file). The root group gives every error
of this command status 2 (``TROUBLE_STATUS`` in ``dtcli/cli/__init__.py``).
"""

from __future__ import annotations

import click

from dtcli.cli.common import format_in_option, load_model, output_option, write_output
from dtcli.cli.guard import Command
from dtcli.cli.options import data_limit_options, format_option
from dtcli.render.diff import FORMATS


@click.command("diff", cls=Command)
@click.argument("model", metavar="A")
@click.argument("other", metavar="B")
@click.option(
    "--data",
    metavar="DATA",
    help="Also apply both models to DATA and report the share of its rows on which they predict the same class.",
)
@click.option(
    "--tolerance",
    type=float,
    default=0.0,
    show_default=True,
    metavar="T",
    help="Numeric thresholds (and rule bounds) within T of each other are the same (default: exactly equal).",
)
@click.option(
    "--count-tolerance",
    type=float,
    default=0.0,
    show_default=True,
    metavar="C",
    help="Counts (and regression weights and means) within C of each other are the same; "
    "they always compare to 1e-9 relative, the noise of adding fractional cases in another order.",
)
@format_option(FORMATS, "text", "text for people; json: a 'dtree-diff' document for scripts.")
@format_in_option
@data_limit_options
@output_option(
    "Write the result to FILE instead of standard output (- for standard output); without -f, .json writes json."
)
def command(model, other, data, tolerance, count_tolerance, fmt, format_in, limits, output):
    """Compare A and B, two trees (from 'dtree train -o') or two rule sets
    (from 'dtree rules -f json'), node by node.

    Branch order and training metadata (the data's file name and sha256,
    the parameters, the scores) do not matter: nominal branches match by
    value, CART subsets as sets, counts by class name. Prints whether they
    are equivalent, the first node that differs (its path from the root and
    what differs: the test, the threshold, the branches, the counts, leaf
    against split, the label), and how many nodes match, differ, or exist in
    one tree only. Rule sets compare rule by rule in order (first match
    decides), each rule's conditions as a set. With --data, the share of
    DATA's rows both models predict alike.

    Exit status, as diff(1): 0 equivalent, 1 different, 2 trouble (an
    unreadable or foreign model, a tree against a rule set, a bad option).

    Example: dtree diff weather.json pruned.json --data sample_data/weather.csv
    """
    from dtcli.compare.findings import Tolerance
    from dtcli.induction.params import check_finite
    from dtcli.render.diff import diff_json, diff_text

    for option, value in (("--tolerance", tolerance), ("--count-tolerance", count_tolerance)):
        check_finite(option, value)
        if value < 0:
            _trouble(f"{option} must be 0 or more (0: exactly equal)")
    given = Tolerance(tolerance, count_tolerance)
    a, b = load_model(model, limits), load_model(other, limits)
    comparison = _compare(a, b, (model, other), given)
    agreement = _agreement(a, b, data, format_in, limits, given) if data else None
    names = (model, other)
    if fmt == "json":
        text = diff_json(comparison, names, (_format(a), _format(b)), given, agreement)
    else:
        text = diff_text(comparison, names, agreement)
    write_output(output, text)
    raise click.exceptions.Exit(0 if comparison.equivalent else 1)


def _trouble(message: str):
    from dtcli.errors import ParameterError

    raise ParameterError(message)


def _format(model) -> str:
    from dtcli.model.format.model import FORMAT
    from dtcli.model.rules import RULES_FORMAT, RuleSet

    return RULES_FORMAT if isinstance(model, RuleSet) else FORMAT


def _compare(a, b, names, tolerance):
    """A tree with a tree, a rule set with a rule set; anything else is trouble."""
    from dtcli.compare.rules import compare_rule_sets
    from dtcli.compare.trees import compare_trees
    from dtcli.model.rules import RuleSet

    rules = (isinstance(a, RuleSet), isinstance(b, RuleSet))
    if rules[0] != rules[1]:
        tree, ruleset = (names[0], names[1]) if rules[1] else (names[1], names[0])
        _trouble(
            f"{ruleset} is a rule set and {tree} a tree: compare a tree with a tree, or the tree's rules "
            f"with the rule set (dtree rules {tree} -f json -o rules.json)"
        )
    return compare_rule_sets(a, b, tolerance) if rules[0] else compare_trees(a, b, tolerance)


def _agreement(a, b, data, format_in, limits, tolerance) -> dict:
    """``agreement`` of the document: the data file, its rows, and how many both models predict alike."""
    from dtcli.compare.agreement import agreement
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data

    if a.schema.is_regression != b.schema.is_regression:
        _trouble(f"--data: {data}: a regression model and a classification model predict nothing alike")
    texts = list(dict.fromkeys(text_columns(a.schema) + text_columns(b.schema)))
    raw = read_data(data, format_in, texts, limits)
    found = agreement(a, encode_for_schema(raw, a.schema).table, b, encode_for_schema(raw, b.schema).table, tolerance)
    regression = a.schema.is_regression
    return {"data": data, "rows": found.rows, "same": found.same, "share": found.share, "regression": regression}
