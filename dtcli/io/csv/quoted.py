"""A CSV file with quotes, record by record with Python's ``csv`` module: where each record starts.

The module reads the file's lines from ``PhysicalLines``, which numbers them
as ``csv`` does with ``newline=''`` (LF, CRLF and a lone CR each end a line)
and, when a record is about to start, skips a run of blank lines in one step
(a blank line outside quotes is always between records): a GiB of blank
lines is one array scan, not a billion steps. A quote left open at the end of
the file is named by the line where its record starts (the reader is strict
first; a file with text after a closing quote, which pandas accepts, is read
again without ``strict``).
"""

from __future__ import annotations

import csv
import io
import re
import sys

import numpy as np

from dtcli.errors import DataError
from dtcli.io.csv.scan import BLANK_SHARE, LONE_CR, ends_between, next_content
from dtcli.io.source import BufferReader, too_many_rows

LINE = re.compile(rb"\r\n|\r|\n")
BLANK = (10, 13)  # LF, CR
FEW_BLANK = 100_000  # blank lines the csv module may read one by one
SPACES = " \t"  # a narrow record of these and separators only is left alone (pandas skips or pads it)
FIELD_LIMIT = min(sys.maxsize, (1 << 31) - 1)  # the csv module's default (128 KiB) refuses long cells


class PhysicalLines:
    """The lines of ``data`` (each with its line end) for ``csv.reader``. Set ``fresh`` before
    asking for a record: then blank lines are skipped (their byte ranges kept in ``skipped``),
    ``first`` becomes the line where the record starts and ``start`` its first byte."""

    def __init__(self, data):
        self.data, self.raw = data, np.frombuffer(data, dtype=np.uint8)
        self.position = self.line = self.first = self.start = 0
        self.fresh = True
        self.skipped: list[tuple[int, int]] = []

    def __iter__(self):
        return self

    def __next__(self) -> str:
        data, position = self.data, self.position
        if self.fresh:
            self.fresh = False
            if position < len(data) and data[position] in BLANK:
                start = next_content(self.raw, position)
                self.line += ends_between(data, position, start)
                self.skipped.append((position, start))
                position = start
            self.first, self.start = self.line + 1, position
        if position >= len(data):
            self.position = position
            raise StopIteration
        end = LINE.search(data, position)
        self.position = stop = end.end() if end else len(data)
        self.line += 1
        return data[position:stop].decode("utf-8")


def reader(lines: PhysicalLines, sep: str, strict: bool = False):
    csv.field_size_limit(max(csv.field_size_limit(), FIELD_LIMIT))
    return csv.reader(lines, delimiter=sep, skipinitialspace=True, strict=strict)


def first_record(data, sep: str) -> list[str]:
    """The first record (the header), as the ``csv`` module reads it."""
    return next(reader(PhysicalLines(data), sep), [])


def quoted_records(data, sep: str, width: int, source: str, max_rows: int = 0):
    """The line where each data record starts (int64), the byte ranges of the blank lines, and
    (where a lone CR may end a line) those of the lines of spaces and tabs only; DataError for a
    record too wide, or too narrow unless it holds only separators and spaces, for a quote never
    closed, or past ``max_rows`` records."""
    try:
        return _records(data, sep, width, source, max_rows, strict=True)
    except csv.Error as exc:
        if "expected after" not in str(exc):
            raise
    return _records(data, sep, width, source, max_rows, strict=False)


def _records(data, sep: str, width: int, source: str, max_rows: int, strict: bool):
    """One pass: the csv module reads ``PhysicalLines`` where blank lines are many or a lone CR may
    end one (whose byte ranges are then wanted), else a text stream, with ``line_num`` for the lines."""
    blank = _blank_lines(data)
    physical = LONE_CR.search(data) is not None or blank > FEW_BLANK or 2 * blank * BLANK_SHARE > len(data)
    lines = PhysicalLines(data)
    records = reader(lines if physical else _text(data), sep, strict)
    starts: list[int] = []
    spaced: list[tuple[int, int]] = []  # (physical) lines of spaces and tabs: pandas skips them as blank
    header, first = True, 1
    try:
        while True:
            lines.fresh = True
            first = records.line_num + 1
            record = next(records, None)
            first = lines.first if physical else first
            if record is None:
                break
            if not record or header:
                header = header and not record
                continue
            starts.append(first)
            if physical and len(record) == 1 and not record[0].strip(SPACES) and _spaces(data, lines):
                spaced.append((lines.start, lines.position))
            if len(record) > width or len(record) < width and any(field.strip(SPACES) for field in record):
                raise width_error(source, first, len(record), width)
            if max_rows and len(starts) > max_rows:
                raise too_many_rows(source, max_rows)
    except csv.Error as exc:
        first = lines.first if physical else first
        if "expected after" in str(exc):
            raise
        if "unexpected end of data" in str(exc):
            raise DataError(f"{source}, line {first}: a quoted value is never closed; check the quoting") from None
        raise DataError(f"{source}, line {first}: cannot parse CSV ({exc}); check the quoting") from None
    return np.asarray(starts, dtype=np.int64), lines.skipped, spaced


def _spaces(data, lines: PhysicalLines) -> bool:
    """Whether the record just read is a line of spaces and tabs (no quotes), with its line end."""
    return not bytes(data[lines.start : lines.position]).strip(b" \t\r\n")


def _blank_lines(data) -> int:
    """About how many blank lines ``data`` (no lone CR) has: each LF LF or LF CR LF (half, at worst)."""
    return data.count(b"\n\n") + data.count(b"\n\r\n")


def _text(data):
    return io.TextIOWrapper(io.BufferedReader(BufferReader(data)), encoding="utf-8", newline="")


def width_error(source: str, line: int, found: int, width: int) -> DataError:
    if found < width:
        advice = "add the missing values (an empty field or ? for a missing value)"
    else:
        advice = "quote values that contain the separator, or remove the extra fields"
    return DataError(f"{source}, line {line}: {found} fields where the header has {width}; {advice}")
