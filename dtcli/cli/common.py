"""Options and steps shared by the commands: reading data, models and outputs."""

from __future__ import annotations

from typing import NamedTuple

import click

from dtcli.cli.options import dialect_list, limit_list, limits, option_group
from dtcli.errors import DataError, ModelFormatError, ParameterError
from dtcli.induction.names import MEASURES
from dtcli.io.names import split_names
from dtcli.io.source import DEFAULT_LIMITS, DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, Limits
from dtcli.model.colnames import find, missing_text, same_name

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


def load_training_table(
    data,
    target,
    ignore,
    nominal,
    format_in,
    task="classification",
    limits=DEFAULT_LIMITS,
    strict=False,
    fingerprint=True,
):
    """Read DATA and build the training Table; DataError on any problem. ``fingerprint``: as ``read_training``."""
    columns = (target, ignore, nominal)
    return read_training(data, *columns, format_in, task, limits, strict=strict, fingerprint=fingerprint)[0]


def read_training(
    data,
    target,
    ignore,
    nominal,
    format_in,
    task="classification",
    limits=DEFAULT_LIMITS,
    id_column=None,
    strict=False,
    fingerprint=True,
    weighting=None,
):
    """(the training Table, the cells of the ``id_column`` as text, or None without one): the
    id column names rows in traces and is left out of the attributes, as --ignore leaves one out;
    so is a ``weighting``'s --weights column (``cli.weighting``: the rows' weights, rows of weight 0 left out).
    A column of numbers with stray text is a warning (io.encode.stray_text), an error with ``strict``.
    Without ``fingerprint`` the data's SHA-256 is not computed (the Table's ``sha256`` is "")."""
    from dtcli.induction.memory import release
    from dtcli.io.csv.reader import LAST_COLUMN
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data

    texts = [part.strip() for value in nominal for part in value.split(",")] + list(nominal)
    if task == "classification":
        texts.append(target if target is not None else LAST_COLUMN)
    if id_column is not None:
        texts.append(id_column)
    raw = read_data(data, format_in, texts, limits, fingerprint=fingerprint)
    columns = list(raw.frame.columns)
    ignored = split_names(ignore, columns)
    ids = None
    if id_column is not None:
        ids = _id_cells(raw, id_column, columns[-1] if target is None else target)
        ignored.append(id_column)
    weights = None if weighting is None else weighting.cells(raw, columns[-1] if target is None else target, ignored)
    notes: list[str] = []
    table = infer_table(raw, target, ignored, split_names(nominal, columns), task, strict, notes)
    if weighting is not None and weighting.wanted:
        again = lambda part: infer_table(part, target, ignored, split_names(nominal, columns), task, strict)  # noqa: E731
        table, ids = weighting.apply(table, raw, ids, again, weights)
    del raw  # the file's bytes and text columns go before growth
    release(table.n_rows)
    if notes:
        from dtcli.render.console import warn

        for note in notes:
            warn(note)
    return table, ids


def _id_cells(raw, name: str, target: str) -> list[str]:
    """The cells of the --id column as written ("?" where empty)."""
    column = find(name, columns := list(raw.frame.columns))
    if column is None:
        raise DataError(f"{raw.source}: no column {name!r} (from --id); {missing_text(name, columns)}")
    if same_name(column, target):
        raise DataError(
            f"{raw.source}: --id {name!r} is the target column; give a column that names the rows (such as Day)"
        )
    return [_cell_text(c) for c in raw.frame[column].tolist()]


def _cell_text(cell) -> str:
    if cell is None or cell != cell:
        return "?"
    if isinstance(cell, str):
        return cell
    return str(int(cell)) if abs(cell) < 2**53 and cell == int(cell) else repr(cell)


def load_model(path: str, limits: Limits = DEFAULT_LIMITS, tree_only: bool = False, on_schema=None, flat=False):
    """Read and validate a model file of at most ``limits.max_bytes`` bytes (a tree, or a rule set
    unless ``tree_only``); ``on_schema`` and ``flat`` as for ``serialize.loads_model``."""
    from dtcli.io.source import MODEL, read_text
    from dtcli.model.format.model import loads_model
    from dtcli.model.tree import Tree

    try:
        text = read_text(path, MODEL, limits.max_bytes)
    except DataError as exc:
        raise ModelFormatError(str(exc)) from None
    model = loads_model(text, path, on_schema=on_schema, flat=flat) if on_schema or flat else loads_model(text, path)
    if tree_only and not isinstance(model, Tree):
        raise ModelFormatError(f"{path}: is a rule set, not a tree; prune the tree it came from, then make rules again")
    return model


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


def cost_complexity_pruning(tree, table, ccp, engine: str = "auto", fmt: str = "text"):
    """Prune by cost complexity (checking the options); the CV table goes to stderr (``report_cv``)."""
    pruned, rows, chosen = cost_complexity_result(tree, table, ccp, engine)
    if ccp.folds:
        report_cv(ccp, rows, chosen, fmt)
    return pruned


def cost_complexity_result(tree, table, ccp, engine: str = "auto"):
    """(pruned tree, cp table rows, the row chosen by cross-validation or None), options checked."""
    from dtcli.induction.fit import cost_complexity
    from dtcli.induction.params import check_cost_complexity

    check_cost_complexity(ccp, int(table.labelled().sum()) if table is not None else None)
    return cost_complexity(tree, table, ccp, engine)


def report_cv(ccp, rows, chosen, fmt: str) -> None:
    """The cross-validation table on stderr: text, or with -f json the dtree-cp document."""
    from dtcli.render.ccp import cp_json, cp_settings, cp_table
    from dtcli.render.console import info

    if fmt == "json":
        from dtcli.cli.documents import write_document

        write_document(cp_json(rows, chosen, cp_settings(ccp, chosen.alpha)))
        return
    info(
        f"Cost-complexity pruning, {ccp.folds}-fold cross-validation (seed {ccp.seed})"
        + (", 1-SE rule" if ccp.one_se else "")
        + ":"
    )
    info(cp_table(rows, chosen).rstrip("\n"))


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


def load_costs(path, measure, nunez_w, table):
    """The AttributeCosts of a --costs file for ``table``'s attributes (None without a file)."""
    if not path:
        return None
    from dtcli.induction.criteria.costs import AttributeCosts
    from dtcli.io.costs import read_costs

    return AttributeCosts(read_costs(path, [a.name for a in table.attributes]), measure, nunez_w)


def warn_identifiers(table, quiet: bool) -> None:
    """One warning line per identifier-like nominal column of ``table`` (unless ``quiet``)."""
    if quiet:
        return
    from dtcli.model.identifiers import identifier_message
    from dtcli.model.table import identifier_columns
    from dtcli.render.console import warn
    from dtcli.render.printable import shown

    for name, distinct, known in identifier_columns(table):
        values = table.attributes[table.schema.index(name)].values
        warn(identifier_message(table.source, name, distinct, known, shown, values))
