"""Options and steps shared by the commands: reading data, models and outputs."""

from __future__ import annotations

import functools

import click

from dtcli.errors import DataError, ModelFormatError


format_in_option = click.option(
    "--format-in", type=click.Choice(["csv", "arff"]),
    help="Input format (default: by extension; .arff is ARFF, anything else CSV).",
)


def data_options(func):
    """DATA argument plus --target, --ignore, --nominal and --format-in."""

    @click.argument("data", metavar="DATA")
    @click.option("-t", "--target", metavar="COL", help="Class column (default: the last column).")
    @click.option("--ignore", metavar="COL[,COL]", multiple=True,
                  help="Leave out these columns (e.g. an ID column such as Day). Repeatable.")
    @click.option("--nominal", metavar="COL[,COL]", multiple=True,
                  help="Treat these numeric-looking columns as categories (e.g. 0/1 codes). Repeatable.")
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
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data

    raw = read_data(data, format_in)
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
