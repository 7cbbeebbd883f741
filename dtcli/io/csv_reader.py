"""CSV parsing with pandas' C parser: numeric columns as float64, the rest as text,
widths checked against the header first (pandas would pad short rows silently)."""

from __future__ import annotations

import csv
import io

import numpy as np
import pandas as pd

from dtcli.errors import DataError


def _sniff_separator(header: str, path: str) -> str:
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    if "," in header:
        return ","
    for sep in ("\t", ";", "|"):
        if sep in header:
            return sep
    return ","


MISSING_CELLS = ["", "?"]
NUMERIC_MISSING = ["", "?", "NA", "NaN", "nan", "NAN", "N/A"]
SAMPLE_ROWS = 2000
LAST_COLUMN = "\x00last"  # in text_columns: the last column, whatever its name


def parse_csv(text: str, source: str, path: str, text_columns=()) -> tuple[pd.DataFrame, np.ndarray, str]:
    """The table as a DataFrame, the file line of each row, and the separator.

    Columns whose first rows hold only numbers (or missing markers) are
    parsed as float64 by pandas' C parser, with empty cells, ``?``, ``NA``
    and ``NaN`` missing (NaN); every other column, and those named in
    ``text_columns``, as text, with empty cells and ``?`` missing (NaN).
    """
    first = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    if not first.strip():
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns")
    sep = _sniff_separator(first, path)
    header = [name.strip() for name in next(csv.reader([first], delimiter=sep))]
    payload = text.encode("utf-8")  # pandas reads bytes without a copy (a StringIO would hold 4 bytes a character)
    lines = _check_widths(text, sep, len(header), source, payload)
    options = dict(sep=sep, index_col=False, skipinitialspace=True, engine="c", keep_default_na=False,
                   header=0, names=None, encoding="utf-8")
    try:
        sample = pd.read_csv(io.BytesIO(payload), dtype=str, nrows=SAMPLE_ROWS, na_filter=False, **options)
        texts = set(text_columns) | ({header[-1]} if LAST_COLUMN in text_columns else set())
        numeric = [c for i, c in enumerate(sample.columns)
                   if i < len(header) and header[i] not in texts and _looks_numeric(sample[c])]
        frame = _read_typed(payload, sample.columns, numeric, options)
    except pd.errors.ParserError as exc:
        raise DataError(f"{source}: cannot parse CSV ({_parser_message(str(exc))}); check the quoting") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns") from None
    return _check_header(frame, header, source), lines, sep


def _looks_numeric(cells: pd.Series) -> bool:
    values = cells.str.strip()
    values = values[~values.isin(NUMERIC_MISSING)]
    return len(values) > 0 and not pd.to_numeric(values, errors="coerce").isna().any()


def _read_typed(payload: bytes, columns, numeric: list, options: dict) -> pd.DataFrame:
    """Read with float64 for ``numeric`` columns and text for the rest; if a later row holds a
    non-number in a numeric column, read that file's columns all as text instead.

    Text columns are read as pandas categoricals: each distinct value is one
    Python string, the cells small integer codes (a million rows of text as
    objects would take hundreds of MB and twice the time).
    """
    dtypes = {c: (np.float64 if c in numeric else "category") for c in columns}
    missing = {c: (NUMERIC_MISSING if c in numeric else MISSING_CELLS) for c in columns}
    try:
        frame = pd.read_csv(io.BytesIO(payload), dtype=dtypes, na_values=missing, **options)
    except ValueError:
        missing = {c: MISSING_CELLS for c in columns}
        frame = pd.read_csv(io.BytesIO(payload), dtype="category", na_values=missing, **options)
    # pandas turns categories that look like booleans or numbers into those ("TRUE" and "true"
    # become True): read such columns again as plain text, to keep each value as written.
    retyped = [c for c in frame.columns
               if isinstance(frame[c].dtype, pd.CategoricalDtype) and frame[c].cat.categories.dtype.kind not in "OTU"]
    if retyped:
        text = pd.read_csv(io.BytesIO(payload), dtype=str, usecols=retyped,
                           na_values={c: missing[c] for c in retyped}, **options)
        for c in retyped:
            frame[c] = text[c]
    return frame


def _check_widths(text: str, sep: str, width: int, source: str, payload: bytes) -> np.ndarray:
    """Every record must have as many fields as the header: name the first line that has not.

    Returns the line on which each record starts. Without quotes in the file
    this counts separators line by line with array operations.
    """
    if '"' in text:
        return _check_widths_quoted(text, sep, width, source)
    raw = np.frombuffer(payload, dtype=np.uint8)
    ends, cumulative = _separators_at_newlines(raw, ord(sep))
    if len(raw) and raw[-1] != 10:
        ends = np.append(ends, len(raw))
        cumulative = np.append(cumulative, np.count_nonzero(raw == ord(sep)))
    starts = np.concatenate([[0], ends[:-1] + 1]) if len(ends) else np.array([], dtype=np.int64)
    lengths = ends - starts - (raw[np.maximum(ends - 1, 0)] == 13) if len(ends) else ends
    blank = lengths <= 0
    separators = np.diff(np.concatenate([[0], cumulative]))
    separators = np.where(blank, 0, separators)
    line_numbers = np.arange(1, len(starts) + 1)
    content = np.flatnonzero(~blank)
    if len(content) == 0:
        return np.array([], dtype=np.int64)
    data = content[1:]  # the first non-blank line is the header
    fields = separators[data] + 1
    wrong = np.flatnonzero(fields != width)
    if len(wrong):
        k = data[wrong[0]]
        line = text[starts[k]:ends[k]].strip()
        if line.replace(sep, "").strip():
            _width_error(source, int(line_numbers[k]), int(fields[wrong[0]]), width)
    return line_numbers[data].astype(np.int64)


def _separators_at_newlines(raw: np.ndarray, sep: int, chunk: int = 1 << 23) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the newlines and the number of separators before each, chunk by chunk
    (so the running count never needs more than a chunk's memory)."""
    ends, counts, carry = [], [], 0
    for offset in range(0, len(raw), chunk):
        part = raw[offset:offset + chunk]
        separators = np.flatnonzero(part == sep)
        newlines = np.flatnonzero(part == 10)
        ends.append(newlines + offset)
        counts.append(np.searchsorted(separators, newlines) + carry)
        carry += len(separators)
    if not ends:
        return np.array([], dtype=np.int64), np.array([], dtype=np.int64)
    return np.concatenate(ends), np.concatenate(counts)


def _width_error(source: str, line: int, found: int, width: int):
    if found < width:
        advice = "add the missing values (an empty field or ? for a missing value)"
    else:
        advice = "quote values that contain the separator, or remove the extra fields"
    raise DataError(f"{source}, line {line}: {found} fields where the header has {width}; {advice}")


def _check_widths_quoted(text: str, sep: str, width: int, source: str) -> np.ndarray:
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    next(reader, None)
    starts = []
    previous = reader.line_num
    for record in reader:
        if record:
            starts.append(previous + 1)
        previous = reader.line_num
        if record and len(record) != width and any(field.strip() for field in record):
            _width_error(source, starts[-1], len(record), width)
    return np.asarray(starts, dtype=np.int64)


def _parser_message(message: str) -> str:
    if "EOF inside string" in message:
        return "a quoted value is never closed"
    return message.strip().splitlines()[-1].replace("Error tokenizing data. C error: ", "")


def _check_header(frame: pd.DataFrame, header: list[str], source: str) -> pd.DataFrame:
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise DataError(
                f"{source}: column name {name!r} appears twice (columns {seen[name]} and {position}); "
                "rename one of them"
            )
        seen[name] = position
    frame.columns = header[: len(frame.columns)]
    unnamed = [i for i, name in enumerate(header) if name == ""]
    for i in reversed(unnamed):
        column = frame.iloc[:, i]
        if column.notna().any() and (column.dropna().astype(str).str.strip() != "").any():
            raise DataError(f"{source}: column {i + 1} has no name in the header line; name it")
        frame = frame.drop(columns=frame.columns[i])
    return frame
