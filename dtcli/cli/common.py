"""Options and steps shared by the commands: reading data, models and outputs."""

from __future__ import annotations

import functools

import click

from dtcli.errors import DataError, ModelFormatError

format_in_option = click.option(
    "--format-in",
    type=click.Choice(["csv", "arff"]),
    help="Input format (default: by extension; .arff is ARFF, anything else CSV).",
)


def data_options(func):
    """DATA argument plus --target, --ignore, --nominal and --format-in."""

    @click.argument("data", metavar="DATA")
    @click.option("-t", "--target", metavar="COL", help="Class column (default: the last column).")
    @click.option(
        "--ignore",
        metavar="COL[,COL]",
        multiple=True,
        help="Leave out these columns (e.g. an ID column such as Day). Repeatable.",
    )
    @click.option(
        "--nominal",
        metavar="COL[,COL]",
        multiple=True,
        help="Treat these numeric-looking columns as categories (e.g. 0/1 codes). Repeatable.",
    )
    @format_in_option
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    return wrapper


def split_names(values, columns) -> list[str]:
    """Column names from repeatable, comma-separated options (a name with commas is kept whole)."""
    names: list[str] = []
    for value in values:
        if value in columns:
            names.append(value)
        else:
            names.extend(part.strip() for part in value.split(",") if part.strip())
    return names


def load_training_table(data, target, ignore, nominal, format_in, task="classification"):
    """Read DATA and build the training Table; DataError on any problem."""
    from dtcli.io.csv_reader import LAST_COLUMN
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data

    texts = [part.strip() for value in nominal for part in value.split(",")] + list(nominal)
    if task == "classification":
        texts.append(target if target is not None else LAST_COLUMN)
    raw = read_data(data, format_in, texts)
    columns = list(raw.frame.columns)
    return infer_table(raw, target, split_names(ignore, columns), split_names(nominal, columns), task)


def load_model(path: str):
    """Read and validate a model file."""
    from dtcli.io.write import read_text
    from dtcli.model.serialize import loads_model

    try:
        text = read_text(path, "model file")
    except DataError as exc:
        raise ModelFormatError(str(exc)) from None
    return loads_model(text, path)


def output_option(help_text: str):
    return click.option("-o", "--output", metavar="FILE", help=help_text)


def emit_tree(tree, output, fmt, quiet) -> None:
    """Write the model to ``output`` (atomically) and print the tree as ``fmt`` asks."""
    import sys

    from dtcli.model.serialize import dump_model
    from dtcli.render.console import make_console
    from dtcli.render.tree import rich_tree, text_tree

    if output:
        from dtcli.io.write import atomic

        with atomic(output) as handle:
            dump_model(tree, handle.write)
    if quiet:
        return
    if fmt == "json":
        dump_model(tree, sys.stdout.write)
        sys.stdout.flush()
    elif fmt == "text":
        click.echo(text_tree(tree), nl=False)
    else:
        make_console().print(rich_tree(tree))


def cost_complexity_pruning(tree, table, alpha, folds, one_se, seed):
    """Prune by cost complexity (checking the options); the CV table goes to stderr."""
    from dtcli.errors import ParameterError
    from dtcli.induction.prune.ccp_select import cost_complexity
    from dtcli.render.ccp import cp_table
    from dtcli.render.console import info

    if alpha is not None and folds:
        raise ParameterError("give --ccp-alpha or --cv-folds, not both")
    if alpha is not None and alpha < 0:
        raise ParameterError("--ccp-alpha must be 0 or more")
    if folds is not None and not 2 <= folds <= int(table.labelled().sum()):
        raise ParameterError("--cv-folds must be at least 2 and at most the number of rows")
    pruned, rows, chosen = cost_complexity(tree, table, alpha, folds, one_se, seed)
    if folds:
        info(
            f"Cost-complexity pruning, {folds}-fold cross-validation (seed {seed})"
            + (", 1-SE rule" if one_se else "")
            + ":"
        )
        info(cp_table(rows, chosen).rstrip("\n"))
    return pruned


def cost_options(costs_help: str):
    """--costs, --cost-measure and --nunez-w (Mitchell 3.7.5), shared by train and gain."""

    def decorate(func):
        func = click.option(
            "--nunez-w",
            type=float,
            default=1.0,
            show_default=True,
            metavar="W",
            help="The w of --cost-measure nunez, in [0, 1].",
        )(func)
        func = click.option(
            "--cost-measure",
            type=click.Choice(["ratio", "tan-schlimmer", "nunez"]),
            default="ratio",
            show_default=True,
            help="With --costs: Gain/Cost, Gain^2/Cost, or (2^Gain - 1)/(Cost + 1)^w.",
        )(func)
        return click.option("--costs", metavar="FILE", help=costs_help)(func)

    return decorate


def load_costs(path, measure, nunez_w, table):
    """The AttributeCosts of a --costs file for ``table``'s attributes (None without a file)."""
    if not path:
        return None
    from dtcli.induction.criteria.costs import AttributeCosts
    from dtcli.io.costs import read_costs

    return AttributeCosts(read_costs(path, [a.name for a in table.attributes]), measure, nunez_w)
