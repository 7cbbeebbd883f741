"""Tables from what a Python user holds: a file path (read as the commands read it), a DataFrame, arrays.

``training_table(data, options)`` gives the training Table and the user's class labels
(their own values, which ``Model.predict`` gives back); ``table_for(schema, data)`` encodes
new rows with a model's attributes. A DataFrame is never imported here: anything with
``columns`` and item access is taken as one (object, string, category and bool columns
are nominal; NaN, None and pandas' NA are missing values).
"""

from __future__ import annotations

import os

import numpy as np

from dtcli.errors import DataError
from dtcli.model.table import MISSING, NOMINAL, NUMERIC, Attribute, Schema, Table

FRAME = "<DataFrame>"


def is_missing(cell) -> bool:
    """None, NaN, pandas' NA and NaT (whose comparisons are not True/False)."""
    if cell is None:
        return True
    try:
        return bool(cell != cell)
    except (TypeError, ValueError):
        return True


def nominal_codes(cells, declared=None) -> tuple[np.ndarray, tuple[str, ...], list]:
    """(codes, -1 missing; the values as text, in order of first appearance, or the ``declared`` values (a
    pandas category's categories, as an ARFF header declares them) first; the first cell of each)."""
    firsts: list = [] if declared is None else [v.item() if isinstance(v, np.generic) else v for v in declared]
    index: dict[str, int] = {}
    for value in firsts:
        index.setdefault(value if isinstance(value, str) else str(value), len(index))
    codes = np.empty(len(cells), dtype=np.int32)
    for row, cell in enumerate(cells):
        if is_missing(cell):
            codes[row] = MISSING
            continue
        text = cell if isinstance(cell, str) else str(cell)
        code = index.setdefault(text, len(index))
        if code == len(firsts):
            firsts.append(cell.item() if isinstance(cell, np.generic) else cell)
        codes[row] = code
    return codes, tuple(index), firsts


def numbers(cells, name: str, source: str) -> np.ndarray:
    """The cells as float64 (NaN missing); DataError naming the column and row of one that is no number."""
    try:
        return np.asarray(cells, dtype=np.float64)
    except (TypeError, ValueError):
        pass
    values = np.empty(len(cells), dtype=np.float64)
    for row, cell in enumerate(cells):
        if is_missing(cell) or (isinstance(cell, str) and cell.strip() in ("", "?")):
            values[row] = np.nan
            continue
        try:
            values[row] = float(cell)
        except (TypeError, ValueError):
            raise DataError(f"{source}: column {name!r} is numeric, but row {row + 1} holds {cell!r}") from None
    return values


def is_number_kind(kind: str) -> bool:
    """Whether a numpy dtype kind holds numbers (not bool: True/False are categories)."""
    return kind in "iuf"


def column_kind(cells) -> str:
    """NUMERIC when every cell present is a number (not a bool, not text), else NOMINAL."""
    dtype = getattr(cells, "dtype", None)
    if dtype is not None and dtype.kind != "O":
        return NUMERIC if is_number_kind(dtype.kind) else NOMINAL
    present = [cell for cell in cells if not is_missing(cell)]
    if not present:
        return NOMINAL
    numeric = all(isinstance(c, (int, float, np.integer, np.floating)) and not isinstance(c, (bool, np.bool_))
                  for c in present)  # fmt: skip
    return NUMERIC if numeric else NOMINAL


def categories(frame) -> dict[str, list]:
    """The categories of each category column of a DataFrame (in their order), by column name."""
    found = {}
    for name, dtype in zip(frame.columns, frame.dtypes):
        values = getattr(dtype, "categories", None)
        if values is not None:
            found[str(name)] = list(values)
    return found


def frame_columns(frame) -> tuple[list[str], list]:
    """(names, columns as numpy arrays) of a DataFrame: numeric columns as float64 (NaN missing, pandas'
    nullable integers too), every other column as objects, dates and date-times as their ISO 8601 text
    (``date_texts``); a column of durations is refused (give numbers)."""
    names, columns = [], []
    for name in frame.columns:
        series = frame[name]
        dtype = series.dtype
        kind = getattr(dtype, "kind", "O")
        if kind == "m":
            raise DataError(f"{FRAME}: column {name!r} holds durations: convert it to numbers (such as seconds)")
        if kind == "M":
            values = date_texts(series)
        elif kind in "iu" and not series.isna().any():
            values = series.to_numpy()  # whole numbers stay whole: the labels 1 and 0, not 1.0 and 0.0
        elif is_number_kind(kind):
            values = series.to_numpy(dtype=np.float64, na_value=np.nan)
        else:
            values = np.asarray(series.to_numpy(dtype=object), dtype=object)
        names.append(str(name))
        columns.append(values)
    return names, columns


def date_texts(series) -> np.ndarray:
    """A pandas column of dates or date-times as the ISO 8601 text a CSV file of it holds, as objects (None
    for NaT): ``TextColumn.of_instants``, the instants of a column with a time zone in UTC."""
    from dtcli.io.columns import TextColumn

    zoned = getattr(series.dtype, "tz", None) is not None
    if zoned:
        series = series.dt.tz_convert("UTC").dt.tz_localize(None)
    micros = series.to_numpy(dtype="datetime64[us]").view(np.int64)
    return np.array(TextColumn.of_instants(micros, zoned).tolist(), dtype=object)


def array_columns(data, names) -> tuple[list[str], list]:
    """(names, columns) of a structured numpy array, or of a 2-D array with ``names`` (one per column)."""
    array = np.asarray(data)
    if array.dtype.names:
        return list(array.dtype.names), [array[name] for name in array.dtype.names]
    if array.ndim != 2:
        raise DataError(f"<array>: expected a table (2-D array), got an array of {array.ndim} dimension(s)")
    if names is None or len(names) != array.shape[1]:
        raise DataError(f"<array>: give names=[...] with one name for each of its {array.shape[1]} columns")
    return [str(n) for n in names], [array[:, j] for j in range(array.shape[1])]


def is_frame(data) -> bool:
    return hasattr(data, "columns") and hasattr(data, "__getitem__") and hasattr(data, "dtypes")


def columns_of(data, names=None) -> tuple[str, list[str], list]:
    """(source name, column names, columns) of a DataFrame, an array or a dict of columns."""
    if is_frame(data):
        return (FRAME, *frame_columns(data))
    if isinstance(data, dict):
        keys = [str(k) for k in data]
        return "<dict>", keys, [np.asarray(v, dtype=object) if np.ndim(v) else np.array([v], dtype=object)
                                for v in data.values()]  # fmt: skip
    return ("<array>", *array_columns(data, names))


def training_table(data, options: dict, names=None) -> tuple[Table, tuple | None]:
    """The training Table of ``data`` and the user's class labels (None: the labels are the classes' text),
    weighed by the ``weights`` column and ``class_weight`` (``induction.weights.weigh``) when given."""
    from dtcli.api.options import class_weight_of

    options = {**options, "class_weight": class_weight_of(options.get("class_weight"))}
    if isinstance(data, (str, os.PathLike)):
        return read_training(os.fspath(data), options), None
    source, names, columns = columns_of(data, names)
    declared = categories(data) if is_frame(data) else {}
    target = options.get("target") or names[-1]
    column, weights = options.get("weights"), None
    if column is not None:
        if column not in names:
            raise DataError(f"{source}: no column {column!r} (from weights); columns are: {', '.join(names)}")
        weights = checked_weights(columns[names.index(column)], column, source)
        options = {**options, "ignore": listed(options.get("ignore")) + [column]}
    table, labels = _table_of(source, names, columns, declared, target, options)
    if column is None and options.get("class_weight") is None:
        return table, labels
    from dtcli.induction.weights import weigh

    again = lambda kept: _table_of(source, names, [c[kept] for c in columns], declared, target, options)  # noqa: E731
    table, kept = weigh(table, weights, options.get("class_weight"), lambda kept: again(kept)[0])
    return table, labels if kept is None else again(kept)[1]


def checked_weights(cells, name: str, source: str) -> np.ndarray:
    """The numbers of a weights column: DataError naming the first row that is not a finite number >= 0."""
    weights = np.array([numeric(c) for c in cells], dtype=np.float64)
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        row = int(np.argmax(bad))
        cell = cells[row].item() if hasattr(cells[row], "item") else cells[row]  # (a numpy number: as Python's)
        raise DataError(f"{source}: row {row + 1}: the weight {cell!r} in column {name!r} is not a finite "
                        "number of at least 0; give every row one (0 leaves the row out)")  # fmt: skip
    return weights


def numeric(cell) -> float:
    try:
        return float(cell)
    except (TypeError, ValueError):
        return float("nan")


def _table_of(source, names, columns, declared, target, options) -> tuple[Table, tuple | None]:
    ignore, nominal = listed(options.get("ignore")), listed(options.get("nominal"))
    for option, wanted in (("target", [target]), ("ignore", ignore), ("nominal", nominal)):
        for name in wanted:
            if name not in names:
                raise DataError(f"{source}: no column {name!r} (from {option}); columns are: {', '.join(names)}")
    if target in ignore:
        raise DataError(f"{source}: the target column {target!r} cannot be ignored")
    attributes, data_columns = [], []
    for name, cells in zip(names, columns):
        if name == target or name in ignore:
            continue
        attribute, values, _ = encode_column(name, cells, name in nominal, source, declared.get(name))
        attributes.append(attribute)
        data_columns.append(values)
    cells = columns[names.index(target)]
    task = options.get("task") or "auto"
    if task not in ("auto", "classification", "regression"):
        raise DataError(f"task {task!r}: choose from auto, classification, regression")
    regression = task == "regression" or (task == "auto" and target not in nominal and column_kind(cells) == NUMERIC)
    if regression and column_kind(cells) != NUMERIC:
        raise DataError(f"{source}: task regression needs a numeric target, and {target!r} is not numeric")
    target_attr, y, labels = encode_column(target, cells, not regression, source, declared.get(target))
    table = Table(Schema(tuple(attributes), target_attr), data_columns, y, source=source)
    return table, None if regression else tuple(labels)


def encode_column(name: str, cells, nominal: bool, source: str, declared=None):
    """(Attribute, its column, the first cell of each value) for training: nominal when asked, when ``declared``
    (a category's categories: its values, in their order) or not numeric."""
    if declared is None and not nominal and column_kind(cells) == NUMERIC:
        return Attribute(name, NUMERIC), numbers(cells, name, source), None
    dates = None if declared is not None or nominal else iso_dates_of(cells)
    if dates is not None:
        return Attribute(name, NUMERIC, time=dates[0]), dates[1], None
    codes, values, firsts = nominal_codes(cells, declared)
    return Attribute(name, NOMINAL, values), codes, firsts


def iso_dates_of(cells) -> tuple[str, np.ndarray] | None:
    """(format, seconds since the epoch) of cells that are all text in one ISO 8601 form of a date (missing
    cells aside), as a CSV column of them reads (``encode.iso_dates``), else None."""
    present = [cell for cell in cells if not is_missing(cell)]
    if not present or not isinstance(present[0], str) or not present[0].strip()[:1].isdigit():
        return None  # (a date begins with its year's digits: most text columns end here)
    if not all(isinstance(cell, str) for cell in present):
        return None
    from dtcli.io.columns import TextColumn
    from dtcli.io.encode import iso_dates

    return iso_dates(TextColumn.of([None if is_missing(cell) else cell for cell in cells]))


def listed(value) -> list[str]:
    """Column names from a name, a comma-separated list or a sequence of names."""
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(v) for v in value]


def limits(options: dict):
    """The reading Limits of ``max_bytes``, ``max_rows``, ``sep`` and ``decimal``."""
    from dtcli.io.source import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, Limits

    max_bytes = options.get("max_bytes")
    max_rows = options.get("max_rows")
    return Limits(
        DEFAULT_MAX_BYTES if max_bytes is None else max_bytes,
        DEFAULT_MAX_ROWS if max_rows is None else max_rows,
        options.get("sep"),
        options.get("decimal"),
    )


def read_training(path: str, options: dict) -> Table:
    """The training Table of a file, read as ``dtree train`` reads DATA (target, ignore, nominal, format_in,
    limits, strict, task, weights, class_weight: ``pipeline.load.read_training``); the readers' notes are
    warned of."""
    from dtcli.pipeline.load import Weighting
    from dtcli.pipeline.load import read_training as read_table

    columns = (options.get("target"), tuple(listed(options.get("ignore"))), tuple(listed(options.get("nominal"))))
    weighting = Weighting(options.get("weights"), options.get("class_weight"), from_option=False)
    task, strict = options.get("task") or "auto", bool(options.get("strict"))
    got = read_table(path, *columns, options.get("format_in"), task, limits(options), None, strict, weighting=weighting,
                     warn=lambda note: warn_all([note]))  # fmt: skip
    return got[0]


def warn_all(messages) -> None:
    """Each message as a Python warning (``DtreeWarning``), as the command prints it on stderr."""
    if not messages:
        return
    import warnings

    from dtcli.errors import DtreeWarning

    for message in messages:
        warnings.warn(message, DtreeWarning, stacklevel=3)


def table_for(schema: Schema, data, names=None, options=None):
    """(Table of ``data`` encoded with a model's ``schema``, the user's target cells or None). A path is read
    as ``dtree predict`` reads DATA; values a nominal attribute never had in training become missing."""
    if isinstance(data, (str, os.PathLike)):
        from dtcli.io.encode import encode_for_schema, text_columns
        from dtcli.io.read import read_data

        raw = read_data(os.fspath(data), (options or {}).get("format_in"), text_columns(schema), limits(options or {}))
        encoded = encode_for_schema(raw, schema)
        return encoded.table, None
    if hasattr(data, "to_dict") and hasattr(data, "index") and not is_frame(data):
        data = data.to_dict()  # a pandas Series: one row (``frame.iloc[0]``)
    if isinstance(data, dict) and not any(np.ndim(v) for v in data.values()):
        data = {k: [v] for k, v in data.items()}  # one row
    if not isinstance(data, dict) and not is_frame(data) and names is None and np.ndim(data) == 2:
        names = [a.name for a in schema.attributes][: np.shape(data)[1]]  # columns in the attributes' order
    source, names, columns = columns_of(data, names)
    found = dict(zip(names, columns))
    lacking = [a.name for a in schema.attributes if a.name not in found]
    if lacking:
        raise DataError(f"{source}: the model needs column(s) {', '.join(map(repr, lacking))}, which the data lacks")
    encoded = [encode_for(a, found[a.name], source) for a in schema.attributes]
    n_rows = len(columns[0]) if columns else 0
    y = np.full(n_rows, np.nan) if schema.is_regression else np.full(n_rows, MISSING, dtype=np.int32)
    return Table(schema, encoded, y, source=source), found.get(schema.target.name)


def encode_for(attribute: Attribute, cells, source: str) -> np.ndarray:
    """One column encoded for a model's ``attribute`` (unseen nominal values: missing)."""
    if attribute.time:
        return dates_for(attribute, cells, source)
    if not attribute.is_nominal:
        return numbers(cells, attribute.name, source)
    codes = np.empty(len(cells), dtype=np.int32)
    for row, cell in enumerate(cells):
        codes[row] = MISSING if is_missing(cell) else attribute.code_of(cell if isinstance(cell, str) else str(cell))
    return codes


def dates_for(attribute: Attribute, cells, source: str) -> np.ndarray:
    """A column for a model's date ``attribute``: its cells as dates of the attribute's format (or of another
    ISO 8601 form, as ``dtree predict`` reads them); DataError naming the first row that holds none."""
    from dtcli.io.columns import TextColumn
    from dtcli.io.encode import date_values

    texts = [None if is_missing(cell) else cell if isinstance(cell, str) else str(cell) for cell in cells]
    values, bad = date_values(TextColumn.of(texts), attribute.time)
    if bad.any():
        row = int(np.argmax(bad))
        raise DataError(
            f"{source}: column {attribute.name!r} must be dates written {attribute.time} for this model, "
            f"but row {row + 1} holds {cells[row]!r}"
        )
    return values
