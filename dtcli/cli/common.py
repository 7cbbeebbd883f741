"""Options and steps shared by the commands: DATA's options, printing trees and writing outputs."""

from __future__ import annotations

from typing import NamedTuple

import click

from dtcli.cli.options import dialect_list, limit_list, limits, option_group
from dtcli.errors import ParameterError
from dtcli.induction.names import MEASURES
from dtcli.io.source import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, Limits
from dtcli.pipeline.load import load_costs, read_training
from dtcli.pipeline.load import load_model as load_model  # (the commands that read a model take it from here)
from dtcli.pipeline.load import load_training_table as load_training_table
from dtcli.pipeline.train import cv_text

format_in_option = click.option(
    "--format-in",
    type=click.Choice(["csv", "arff", "parquet"]),
    help="Input format (default: by extension; .arff is ARFF, .parquet, a file starting PAR1 or a directory "
    "Parquet (needs the 'scale' extra), anything else CSV).",
)


class Source(NamedTuple):
    """DATA and how to read it: --target, --ignore, --nominal, --format-in, --max-bytes, --max-rows, --sep,
    --decimal."""

    data: str
    target: str | None
    ignore: tuple
    nominal: tuple
    format_in: str | None
    max_bytes: int = DEFAULT_MAX_BYTES
    max_rows: int = DEFAULT_MAX_ROWS
    strict: bool = False
    sep: str | None = None
    decimal: str | None = None

    @property
    def limits(self) -> Limits:
        return limits(self.max_bytes, self.max_rows, self.sep, self.decimal)

    def load(self, task: str = "classification", *, fingerprint: bool = True, weighting=None):
        """The training Table (DataError on any problem); without ``fingerprint``, its ``sha256`` is ""
        (for a command that records no model); ``weighting``: as ``read_training``."""
        columns = (self.target, self.ignore, self.nominal)
        got = read_training(self.data, *columns, self.format_in, task, self.limits, None, self.strict, fingerprint,
                            weighting)  # fmt: skip
        return got[0]

    def load_with_ids(self, task: str, id_column: str | None, weighting=None):
        """The training Table and the cells of ``id_column`` (None without one): ``read_training``."""
        return read_training(self.data, self.target, self.ignore, self.nominal, self.format_in, task, self.limits,
                             id_column, self.strict, weighting=weighting)  # fmt: skip


data_options = option_group(
    "source",
    Source,
    click.argument("data", metavar="DATA"),
    click.option("-t", "--target", metavar="COL", help="Class column (default: the last column)."),
    click.option(
        "--ignore",
        metavar="COL[,COL]",
        multiple=True,
        help="Leave out these columns (e.g. an ID column such as Day). Repeatable.",
    ),
    click.option(
        "--nominal",
        metavar="COL[,COL]",
        multiple=True,
        help="Treat these numeric-looking columns as categories (e.g. 0/1 codes). Repeatable.",
    ),
    format_in_option,
    *limit_list(),
    *dialect_list(),
    click.option(
        "--strict",
        is_flag=True,
        help="Refuse a CSV column of numbers with stray text (e.g. one 'n/a' among thousands of numbers) "
        "instead of reading it as nominal with a warning.",
    ),
)


def task_option(help_text: str, auto: bool = False):
    choices = ["auto", "classification", "regression"] if auto else ["classification", "regression"]
    return click.option("--task", type=click.Choice(choices), help=help_text)


def show_option(what: str):
    """--show FORMAT (train, prune): print the tree in one of ``dtree show``'s formats instead."""
    from dtcli.render.export import FORMATS

    return click.option(
        "--show",
        type=click.Choice(FORMATS),
        metavar="FORMAT",
        help=f"Print {what} as 'dtree show -f FORMAT' does instead of the usual printout: "
        f"{', '.join(FORMATS)} (the model file of -o stays JSON).",
    )


def quiet_or_show(quiet: bool, show: str | None, output: str | None = None) -> None:
    """-q (print no tree) and --show (print it so) contradict each other, as do --show and -o -
    (the model on standard output): ParameterError."""
    if quiet and show:
        raise ParameterError(f"-q prints no tree and --show {show} prints one: give one of them")
    if show and output == "-":
        raise ParameterError(f"-o - writes the model to standard output, where --show {show} would print the tree: "
                             "give -o FILE, or leave out --show")  # fmt: skip


def written_to(output: str | None) -> str:
    """The summary line's tail naming where the model went (empty without -o)."""
    if not output:
        return ""
    return "; model written to standard output" if output == "-" else f"; model written to {output}"


def output_option(help_text: str):
    return click.option("-o", "--output", metavar="FILE", help=help_text)


def emit_tree(tree, output, fmt, quiet, after=None) -> None:
    """Print the tree as ``fmt`` asks (a printout, the model, or a picture: dot, svg, mermaid), call
    ``after()`` (more output after the tree), then write the model to ``output`` (atomically) as the
    run's last output: a stop signal during the printout leaves the previous model, and none after the
    model is in place undoes the run. ``output`` ``-`` writes the model to standard output instead of
    the printout."""
    if output == "-":  # the model is standard output's data: no printout beside it
        show_tree(tree, "json", None, None, "dtree show MODEL")
        if after is not None:
            after()
        return
    if not quiet:
        show_tree(tree, fmt, None, None, "dtree show MODEL")
    if after is not None:
        after()
    if output:
        from dtcli.io.write import atomic
        from dtcli.model.format.model import dump_model  # here: a printout alone needs no model file

        with atomic(output, last=True) as handle:
            dump_model(tree, handle.write)


def heading(tree) -> str:
    """The title of a tree's picture: ``C4.5 tree`` (the algorithm's name)."""
    from dtcli.induction.algorithms import ALGORITHMS

    known = ALGORITHMS.get(tree.algorithm)
    return f"{known.title} tree" if known else "Decision tree"


def show_tree(tree, fmt: str, output: str | None, max_depth: int | None, again: str) -> None:
    """``tree`` in ``fmt`` (render.export.FORMATS) to the file ``output`` (atomically) or standard output,
    the tree cut at ``max_depth`` levels; a picture cut or too large gets a note on stderr (``again``:
    the command that draws it cut)."""
    from dtcli.render.console import console, info
    from dtcli.render.export import PICTURES, draw, printout

    if fmt in PICTURES:
        from dtcli.render.picture import note

        text, shown = draw(tree, fmt, max_depth, heading(tree))
        write_output(output, text)
        line = note(tree, shown, max_depth, again)
        if line:
            info(f"Note: {line}")
    elif output and output != "-":
        write_output(output, printout(tree, fmt, max_depth))
    elif fmt == "json":
        from dtcli.model.format.model import dump_model
        from dtcli.render.console import writing_stdout

        with writing_stdout():
            dump_model(tree, console.write)
            console.stdout.flush()
    elif fmt == "text" or not console.stdout.isatty():  # piped: the rich form unwrapped (render.export)
        console.data(printout(tree, fmt, max_depth))
    else:
        from dtcli.render.tree import ShownTree, rich_tree

        console.print(ShownTree(tree) if max_depth is None else rich_tree(tree, max_depth))


def write_output(output, text: str, last: bool = True) -> None:
    """``text`` to the file ``output`` (atomically; ``last``: as the run's last output, else put in place
    with a later one or when the run succeeds), or to standard output without one (or with ``-``)."""
    from dtcli.io.write import write_text
    from dtcli.render.console import console

    if not output or output == "-":
        console.data(text)
    else:
        write_text(output, text, last=last)


def report_cv(ccp, rows, chosen, fmt: str) -> None:
    """The cross-validation table on stderr: text, or with -f json the dtree-cp document."""
    if fmt == "json":
        from dtcli.cli.documents import write_document
        from dtcli.render.ccp import cp_json, cp_settings

        write_document(cp_json(rows, chosen, cp_settings(ccp, chosen.alpha)))
        return
    cv_text(ccp, rows, chosen)


class Costs(NamedTuple):
    """--costs FILE with its --cost-measure and --nunez-w."""

    path: str | None
    measure: str
    nunez_w: float

    def load(self, table):
        """The AttributeCosts of the file for ``table``'s attributes (None without a file)."""
        return load_costs(self.path, self.measure, self.nunez_w, table)


def cost_options(costs_help: str):
    """--costs, --cost-measure and --nunez-w (Mitchell 3.7.5) as ``costs``, shared by train and gain."""
    return option_group(
        "costs",
        lambda costs, cost_measure, nunez_w: Costs(costs, cost_measure, nunez_w),
        click.option("--costs", metavar="FILE", help=costs_help),
        click.option(
            "--cost-measure",
            type=click.Choice(MEASURES),
            default="ratio",
            show_default=True,
            help="With --costs: Gain/Cost, Gain^2/Cost, or (2^Gain - 1)/(Cost + 1)^w.",
        ),
        click.option(
            "--nunez-w",
            type=float,
            default=1.0,
            show_default=True,
            metavar="W",
            help="The w of --cost-measure nunez, in [0, 1].",
        ),
    )
