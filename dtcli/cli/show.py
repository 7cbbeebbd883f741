"""``dtree show``: a saved tree as a picture (DOT, SVG, mermaid) or as train prints it."""

from __future__ import annotations

import click

from dtcli.cli.common import load_model, output_option, show_tree
from dtcli.cli.guard import Command
from dtcli.cli.options import format_option, limit_options
from dtcli.render.export import FORMATS


@click.command("show", cls=Command)
@click.argument("model", metavar="MODEL")
@format_option(
    (*FORMATS, "csv"),
    "rich",
    "rich or text: as 'dtree train' prints it; json: the model; dot: Graphviz source; svg: a picture "
    "(no Graphviz needed); mermaid: a flowchart for Markdown. Piped or with -o, the rich tree never wraps a "
    "node's line. With --importance: rich or text a table, json a dtree-importance document, csv.",
)
@click.option(
    "--importance",
    is_flag=True,
    help="Print each attribute's feature importance instead of the tree: its splits' weighted impurity "
    "decrease (the algorithm's measure: entropy, Gini, or squared error), normalised to sum 1, as "
    "scikit-learn's feature_importances_; the most important first.",
)
@click.option(
    "--max-depth",
    type=int,
    metavar="N",
    help="Draw the top N levels only (the root is level 0): a split at depth N is drawn as a leaf "
    "marked as cut (dashed), with how much is below it.",
)
@limit_options
@output_option(
    "Write to FILE (atomically) instead of standard output; without -f its extension picks the format "
    "(.svg, .dot/.gv, .mmd/.mermaid, .json, .txt)."
)
def command(model, fmt, importance, max_depth, limits, output):
    """Show MODEL (a tree from 'dtree train -o' or 'dtree prune -o') as a picture or a printout.

    Every node shows the tested attribute or the predicted class, the
    training class counts and the split's score; every edge the branch
    condition (= Sunny, <= 75, > 75, in {a, b}). In the pictures leaves are
    filled with their class's colour (a regression tree's with a scale of
    the mean). svg is drawn by dtree itself, readable up to a few hundred
    nodes: for larger trees a note on standard error suggests --max-depth.
    Render dot with Graphviz (dot -Tpng tree.dot -o tree.png); paste mermaid
    into a ```mermaid block of a Markdown file.

    Example: dtree show weather.json -f svg -o weather.svg
    """
    import shlex

    from dtcli.errors import ParameterError
    from dtcli.model.rules import RuleSet

    if max_depth is not None and max_depth < 0:
        raise ParameterError("--max-depth must be 0 or more (0 draws the root only)")
    if max_depth is not None and importance:
        raise ParameterError("--max-depth cuts pictures and printouts; --importance covers the whole tree")
    if max_depth is not None and fmt == "json":
        raise ParameterError("--max-depth cuts pictures and printouts; -f json writes the whole model")
    tree = load_model(model, limits)
    if isinstance(tree, RuleSet):
        again = f"dtree rules {shlex.quote(model)} -f markdown"
        raise ParameterError(f"{model}: is a rule set, not a tree; show it with: {again}")
    if importance:
        from dtcli.cli.common import write_output
        from dtcli.render.importance import importance_output

        if fmt not in ("rich", "text", "json", "csv"):
            raise ParameterError(f"--importance prints a table: give -f text, json or csv, not -f {fmt}")
        return write_output(output, importance_output(tree, "text" if fmt == "rich" else fmt, model))
    if fmt == "csv":
        raise ParameterError("-f csv writes the importance table: add --importance, or choose another -f")
    show_tree(tree, fmt, output, max_depth, f"dtree show {shlex.quote(model)}")
