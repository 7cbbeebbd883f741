"""CSV files too large (or too unusual) for the plain reader: pandas' C parser.

Contract: ``read_columns`` returns the file's columns in order, as
``csv_reader`` defines them: columns whose first rows hold only numbers (or
missing markers) as float64, read by the C parser; every other column, and
those named as text, as the cells written, with empty cells and ``?``
missing. Only ``csv_reader`` imports this module, so that small files never
import pandas.
"""

from __future__ import annotations

import warnings

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import NumberColumn, TextColumn, code_type
from dtcli.io.csv import cells as csv_cells
from dtcli.io.csv.cells import MISSING_CELLS, NUMERIC_MISSING, looks_numeric
from dtcli.io.csv.halves import read_halves
from dtcli.io.pandas_import import pandas
from dtcli.io.source import BufferReader

pd = pandas()


def read_columns(payload: bytes, header: list[str], sep: str, texts: set, source: str, rows: int = -1) -> list:
    """The columns of the CSV text ``payload`` (UTF-8 bytes or bytearray, read in place), in file
    order; ``rows``: the records it holds, when known (a large plain file is then read as two
    halves at once: ``csv_halves``)."""
    options = {
        "sep": sep,
        "index_col": False,
        "skipinitialspace": True,
        "engine": "c",
        "keep_default_na": False,
        "header": 0,
        "names": None,
        "encoding": "utf-8",
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", pd.errors.ParserWarning)  # nothing but the one error line on stderr
            sample = pd.read_csv(
                BufferReader(payload), dtype=str, nrows=csv_cells.SAMPLE_ROWS, na_filter=False, **options
            )
            numeric = [
                c
                for i, c in enumerate(sample.columns)
                if i < len(header) and header[i] not in texts and looks_numeric(sample[c].tolist())
            ]
            # each column's type and missing markers, for the halves and for the whole file alike
            dtypes = {c: (np.float64 if c in numeric else "category") for c in sample.columns}
            missing = {c: (NUMERIC_MISSING if c in numeric else MISSING_CELLS) for c in sample.columns}
            halves = read_halves(payload, dtypes, missing, options, rows) if rows >= 0 else None
            if halves is not None:
                return halves
            frame = _read_typed(payload, dtypes, missing, options)
    except pd.errors.ParserError as exc:
        raise DataError(f"{source}: cannot parse CSV ({_parser_message(str(exc))}); check the quoting") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns") from None
    return [_column(frame.iloc[:, i]) for i in range(frame.shape[1])]


def _column(series: pd.Series):
    if series.dtype.kind == "f":
        return NumberColumn(series.to_numpy(dtype=np.float64))
    codes, uniques = pd.factorize(series, use_na_sentinel=True)  # first appearance, -1 missing
    return TextColumn(codes.astype(code_type(len(uniques))), [str(u) for u in uniques])


def _read_typed(payload: bytes, dtypes: dict, missing: dict, options: dict) -> pd.DataFrame:
    """Read each column as ``dtypes`` says (float64, or text), ``missing`` its missing markers; if a
    later row holds a non-number in a numeric column, read that file's columns all as text instead.

    Text columns are read as pandas categoricals: each distinct value is one
    Python string, the cells small integer codes (a million rows of text as
    objects would take hundreds of MB and twice the time).
    """
    columns = list(dtypes)
    try:
        frame = pd.read_csv(BufferReader(payload), dtype=dtypes, na_values=missing, **options)
    except ValueError:
        missing = dict.fromkeys(columns, MISSING_CELLS)
        frame = pd.read_csv(BufferReader(payload), dtype="category", na_values=missing, **options)
    # pandas turns categories that look like booleans or numbers into those ("TRUE" and "true"
    # become True): read such columns again as plain text, to keep each value as written.
    # Categories that are not all text (big integers come back as Python ints, "-0" as 0) likewise.
    retyped = [
        c
        for c in frame.columns
        if isinstance(frame[c].dtype, pd.CategoricalDtype)
        and pd.api.types.infer_dtype(frame[c].cat.categories, skipna=True) not in ("string", "empty")
    ]
    if retyped:
        text = pd.read_csv(
            BufferReader(payload), dtype=str, usecols=retyped, na_values={c: missing[c] for c in retyped}, **options
        )
        for c in retyped:
            frame[c] = text[c]
    return frame


def _parser_message(message: str) -> str:
    if "EOF inside string" in message:
        return "a quoted value is never closed"
    return message.strip().splitlines()[-1].replace("Error tokenizing data. C error: ", "")
