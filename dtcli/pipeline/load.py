"""Reading DATA into the training Table (ids, case weights), model files and cost files, as every command does."""

from __future__ import annotations

from typing import NamedTuple

from dtcli.errors import DataError, ModelFormatError, ParameterError
from dtcli.io.names import split_names
from dtcli.io.source import DEFAULT_LIMITS, Limits
from dtcli.model.colnames import find, missing_text, same_name


class Weighting(NamedTuple):
    """--weights COL (a numeric column of case weights, left out of the attributes) and --class-weight: its
    text (``from_option``), or the Python API's ``balanced`` or {class: weight}, as ``induction.weights.weigh``
    takes and checks them."""

    column: str | None = None
    class_weight: str | dict | None = None
    from_option: bool = True

    @property
    def wanted(self) -> bool:
        return self.column is not None or self.class_weight is not None

    def cells(self, raw, target: str, ignored: list):
        """The --weights column's numbers (``io.weights.weight_cells``; None without one), its name added to
        ``ignored`` (the columns left out of the attributes)."""
        if self.column is None:
            return None
        from dtcli.io.weights import weight_cells

        weights = weight_cells(raw, self.column, target)
        ignored.append(self.column)
        return weights

    def apply(self, table, raw, ids, infer, weights):
        """(table, ids) with the case weights times the class weights in ``table.weights``: the
        estimators' weighting (``induction.weights.weigh``); rows of weight 0 are left out, the table
        inferred again (``infer(raw)``) from the rows kept, as if they alone were in the file."""
        from dtcli.induction.weights import parse_class_weight, weigh
        from dtcli.io.weights import kept_rows

        spec = self.class_weight
        if self.from_option and spec is not None:
            spec = parse_class_weight(spec, table.classes)
        if self.from_option and spec is not None and table.is_regression:
            raise ParameterError("--class-weight weighs classes: leave it out of a regression (--task regression)")
        table, kept = weigh(table, weights, spec, lambda rows: infer(kept_rows(raw, rows)))
        if kept is not None and ids is not None:
            ids = [cell for cell, keep in zip(ids, kept.tolist()) if keep]
        return table, ids

    def record(self, tree):
        """``tree`` with the weighting in its parameters, as the model file records it (``recorded``)."""
        from dtcli.induction.weights import parse_class_weight
        from dtcli.pipeline.train import record_weighting

        spec = self.class_weight
        if self.from_option and spec is not None:
            spec = parse_class_weight(spec)
        return record_weighting(tree, self.column, spec)


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
    warn=None,
):
    """(the training Table, the cells of the ``id_column`` as text, or None without one): the
    id column names rows in traces and is left out of the attributes, as --ignore leaves one out;
    so is a ``weighting``'s --weights column (``Weighting``: the rows' weights, rows of weight 0 left out).
    A column of numbers with stray text is a warning (io.written.stray_text), an error with ``strict``.
    Without ``fingerprint`` the data's SHA-256 is not computed (the Table's ``sha256`` is ""). The readers'
    notes go to ``warn(note)`` (by default a warning on standard error)."""
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
    if notes and warn is None:
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


def pruning_table(tree, data, reading, weighted: bool = False):
    """DATA encoded with the model's schema (``reading``: --format-in, Limits); it must have the target column.
    ``weighted`` (the training data): weighed as the model records it was trained (``weights``, ``class_weight``)."""
    from dtcli.io.encode import encode_for_schema, text_columns
    from dtcli.io.read import read_data
    from dtcli.model.colnames import near_clause

    format_in, limits = reading
    raw = read_data(data, format_in, text_columns(tree.schema), limits)
    encoded = encode_for_schema(raw, tree.schema)
    if not encoded.has_target:
        near = near_clause(tree.schema.target.name, list(raw.frame.columns))
        raise DataError(f"{data}: no column {tree.schema.target.name!r}{near}; pruning needs the target values")
    column, class_weight = tree.parameters.get("weights"), tree.parameters.get("class_weight")
    if not weighted or (column is None and class_weight is None):
        return encoded.table
    from dtcli.induction.weights import weigh
    from dtcli.io.weights import weight_cells

    origin = "the model's --weights"
    weights = None if column is None else weight_cells(raw, column, tree.schema.target.name, origin)
    return weigh(encoded.table, weights, class_weight, lambda kept: encoded.table.take(kept))[0]


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
    from dtcli.model.identifiers import numbers_rows, row_number_message

    for attribute, column in zip(table.attributes, table.columns):
        if attribute.is_nominal or attribute.time:
            continue
        known = column[column == column]  # (NaN: missing)
        if len(known) < 2 or not numbers_rows(len(known), len(known), known.min(), known.max(), True):
            continue  # (a cheap look first: the range must be as wide as the rows)
        whole = bool((known % 1 == 0).all())
        if numbers_rows(len(known), len(set(known.tolist())), known.min(), known.max(), whole):
            warn(row_number_message(table.source, attribute.name, known.min(), known.max(), shown))
    if not table.is_regression:
        from dtcli.model.value_text import lookalike_classes, lookalike_message

        groups = lookalike_classes(table.classes)
        if groups:
            warn(lookalike_message(table.source, table.schema.target.name, groups, shown))
