"""Where each CSV record starts, every record as wide as the header, at most ``max_rows`` records.

Lines are counted as Python's ``csv`` module counts them when the file is
opened with ``newline=''`` (and as an editor shows them): LF, CRLF and a lone
CR each end a line, mixed or not. A file without quotes is scanned with array
operations a chunk at a time (``csv_scan``), keeping one number per record; a
file with quotes is read record by record by the ``csv`` module
(``csv_quoted``). Both stop at the first record too wide or too narrow, and as
soon as there are more than ``max_rows`` records (0: no bound). Blank lines
cost no memory, and when they make up much of a file the value parsers get a
copy without them.
"""

from __future__ import annotations

import re

import numpy as np

from dtcli.io.csv.quoted import first_record, quoted_records, width_error
from dtcli.io.csv.scan import (
    BLANK_SHARE,
    CHUNK,
    CR,
    LF,
    LONE_CR,
    content_lines,
    mend_lone_cr,
    without_blank_lines,
    without_ranges,
)
from dtcli.io.source import too_many_rows

LINE_END = re.compile(rb"[\r\n]")


def first_line(data) -> str | None:
    """The first line that is not empty (decoded), or None when every line is (found a chunk at a
    time with array operations: a regular expression takes seconds over a GiB of blank lines)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    for offset in range(0, len(raw), CHUNK):
        part = raw[offset : offset + CHUNK]
        content = np.flatnonzero((part != LF) & (part != CR))
        if len(content):
            start = offset + int(content[0])
            end = LINE_END.search(data, start)
            return bytes(data[start : end.start() if end else len(data)]).decode("utf-8")
    return None


def header_record(data, sep: str, first: str) -> list[str]:
    """The header's cells: the first line split at ``sep``, or with quotes in the file the first
    record as the ``csv`` module reads it (a quoted name may hold the separator or a newline)."""
    return first_record(data, sep) if b'"' in data else first.split(sep)


def record_lines(data: bytearray, sep: str, width: int, source: str, max_rows: int = 0):
    """The line on which each data record starts (int64), and the bytes for the value parsers;
    DataError for a record wider than ``width``, or narrower unless it holds nothing but
    separators and spaces (pandas skips or pads it) or past ``max_rows`` records.

    The bytes are ``data`` mended in place for pandas' C parser, which misreads the line after a
    blank line ended by a lone CR (``a,b\\r\\r,1`` gives ``1,`` for ``,1``), or by a line of spaces
    (which it skips as blank): such a CR becomes an LF, which ends the same line (in a file without
    quotes every lone CR does); or, when blank lines are more than a quarter of the file, a copy
    without them.
    """
    lone = b"\r" in data and LONE_CR.search(data) is not None  # (memchr first: most files hold no CR at all)
    if b'"' in data:
        starts, blank, spaced = quoted_records(data, sep, width, source, max_rows)
        for start, stop in spaced if lone else ():  # (pandas skips such a line as blank, and so misreads it)
            data[start:stop] = LONE_CR.sub(b"\n", data[start:stop])
        if sum(stop - start for start, stop in blank) * BLANK_SHARE > len(data):
            return starts, without_ranges(data, blank)
        for start, stop in blank if lone else ():
            data[start:stop] = LONE_CR.sub(b"\n", data[start:stop])
        return starts, data
    if lone:
        mend_lone_cr(data)
    starts = _unquoted(data, sep, width, source, max_rows)
    if (data.count(b"\n") - len(starts)) * BLANK_SHARE > len(data):
        return starts, without_blank_lines(data)
    return starts, data


def _unquoted(data, sep: str, width: int, source: str, max_rows: int) -> np.ndarray:
    """A file without quotes (and without lone CRs, mended before): each line is a record."""
    kept: list[np.ndarray] = []
    rows, header = 0, True
    raw = np.frombuffer(data, dtype=np.uint8)
    for numbers, fields, stops in content_lines(raw, ord(sep)):
        if header and len(numbers):
            numbers, fields, stops = numbers[1:], fields[1:], stops[1:]
            header = False
        for k in np.flatnonzero(fields != width):
            stop = int(stops[k])
            start = max(data.rfind(b"\n", 0, stop), data.rfind(b"\r", 0, stop)) + 1
            if fields[k] > width or _holds_text(raw, start, stop, ord(sep)):
                raise width_error(source, int(numbers[k]), int(fields[k]), width)
        rows += len(numbers)
        if max_rows and rows > max_rows:
            raise too_many_rows(source, max_rows)
        kept.append(numbers)
    return np.concatenate(kept) if kept else np.array([], dtype=np.int64)


def _holds_text(raw: np.ndarray, start: int, stop: int, sep: int) -> bool:
    """True if ``raw[start:stop]`` holds more than separators, spaces and tabs (a chunk at a time)."""
    for offset in range(start, stop, CHUNK):
        part = raw[offset : min(offset + CHUNK, stop)]
        if ((part != sep) & (part != 32) & (part != 9)).any():
            return True
    return False
