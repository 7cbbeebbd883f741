"""CSV parsing: numeric columns as float64, the rest as text, every row as wide as the header.

Widths are checked against the header first (pandas would pad short rows
silently). Small plain files are read in Python; the rest by pandas' C parser
(``csv_pandas``); what a cell means to both is in ``csv_cells``.
"""

from __future__ import annotations

import csv
import io
import math

import numpy as np

from dtcli.errors import DataError
from dtcli.io import csv_cells
from dtcli.io.columns import Columns, NumberColumn, TextColumn, c_number
from dtcli.io.csv_cells import MISSING_CELLS, NUMERIC_MISSING, looks_numeric


def _sniff_separator(header: str, path: str) -> str:
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    if "," in header:
        return ","
    for sep in ("\t", ";", "|"):
        if sep in header:
            return sep
    return ","


LAST_COLUMN = "\x00last"  # in text_columns: the last column, whatever its name
PLAIN_MAX = 1 << 20  # bytes: files up to this size without quotes are read without pandas


def parse_csv(text: str, source: str, path: str, text_columns=()) -> tuple[Columns, np.ndarray, str]:
    """The table's columns, the file line of each row, and the separator.

    Columns whose first rows (``csv_cells.SAMPLE_ROWS``) hold only numbers (or missing
    markers) are numbers, with empty cells, ``?``, ``NA`` and ``NaN``
    missing (NaN), unless a later row holds something else: then every
    column of the file is text. Every other column, and those named in
    ``text_columns``, are text: the cells as written (leading spaces
    dropped), with empty cells and ``?`` missing. Small plain files are read
    here in Python (no pandas to import: start-up matters to scripts that
    call dtree thousands of times); the rest by pandas' C parser
    (``csv_pandas``), which gives the same columns.
    """
    first = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    if not first.strip():
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns")
    sep = _sniff_separator(first, path)
    header = [name.strip() for name in next(csv.reader([first], delimiter=sep))]
    payload = text.encode("utf-8")  # pandas reads bytes without a copy (a StringIO would hold 4 bytes a character)
    lines = _check_widths(text, sep, len(header), source, payload)
    texts = set(text_columns) | ({header[-1]} if LAST_COLUMN in text_columns else set())
    columns = plain_columns(text, sep, len(header), texts, header) if len(payload) <= PLAIN_MAX else None
    if columns is None:
        from dtcli.io.csv_pandas import read_columns

        columns = read_columns(payload, header, sep, texts, source)
    return _named(columns, header, source), lines, sep


def plain_columns(text: str, sep: str, width: int, texts: set, header: list[str]) -> list | None:
    """The columns of a plain file, read as pandas' C parser reads them; None for any other file,
    which then goes to pandas. Plain: no quotes, line ends \\n or \\r\\n, every record
    ``width`` fields, and no line of white space (with or without separators)."""
    if '"' in text or "\x00" in text:
        return None
    rows = []
    for line in text.split("\n"):
        if line.endswith("\r"):
            line = line[:-1]
        if not line:
            continue
        if "\r" in line:
            return None
        rest = line.replace(sep, "")
        if rest and not rest.strip():  # separators and white space only: pandas may skip the line
            return None
        fields = line.split(sep)
        if len(fields) != width:
            return None
        rows.append([field.lstrip(" ") for field in fields])
    cells = list(zip(*rows[1:])) if len(rows) > 1 else [()] * width
    numeric = [
        header[i] not in texts and looks_numeric(list(column[: csv_cells.SAMPLE_ROWS]))
        for i, column in enumerate(cells)
    ]
    numbers = {}
    for i, column in enumerate(cells):
        if numeric[i]:
            values = [math.nan if cell in NUMERIC_MISSING else c_number(cell) for cell in column]
            if any(value is None for value in values):  # as pandas: the whole file is read as text
                numbers = {}
                break
            numbers[i] = NumberColumn(np.array(values, dtype=np.float64))
    return [
        numbers[i] if i in numbers else TextColumn.of([None if cell in MISSING_CELLS else cell for cell in column])
        for i, column in enumerate(cells)
    ]


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
        line = text[starts[k] : ends[k]].strip()
        if line.replace(sep, "").strip():
            _width_error(source, int(line_numbers[k]), int(fields[wrong[0]]), width)
    return line_numbers[data].astype(np.int64)


def _separators_at_newlines(raw: np.ndarray, sep: int, chunk: int = 1 << 23) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the newlines and the number of separators before each, chunk by chunk
    (so the running count never needs more than a chunk's memory)."""
    ends, counts, carry = [], [], 0
    for offset in range(0, len(raw), chunk):
        part = raw[offset : offset + chunk]
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


def _named(columns: list, header: list[str], source: str) -> Columns:
    """The columns under their header names; an unnamed column must be empty and is dropped."""
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise DataError(
                f"{source}: column name {name!r} appears twice (columns {seen[name]} and {position}); "
                "rename one of them"
            )
        seen[name] = position
    named = {}
    for i, (name, column) in enumerate(zip(header, columns)):
        if name == "":
            if _has_content(column):
                raise DataError(f"{source}: column {i + 1} has no name in the header line; name it")
            continue
        named[name] = column
    rows = len(columns[0]) if columns else 0
    return Columns(named, rows)


def _has_content(column) -> bool:
    if isinstance(column, NumberColumn):
        return bool((~np.isnan(column.values)).any())
    present = set(column.codes[column.codes >= 0].tolist())
    return any(str(column.uniques[code]).strip() != "" for code in present)
