"""A decimal-comma CSV file's numbers made readable: ``5,1`` becomes ``5.1`` in a copy of the bytes, by array scans.

Contract: ``decimal_points(data, sep, source, start)`` returns a copy of ``data``
in which each cell that is a number written with a decimal comma has its comma
made a point; other cells are left as they are. A cell is one field between
separators or line ends (a quoted field that holds the separator is not one
cell here: the file is read with its quotes afterwards). A number cell holds
only digits, signs, exponent marks, spaces, quotes and one comma, followed by
a digit. A cell of that kind written with a point instead (``1.5``, or
``1.234,5`` whose point groups thousands) after byte ``start`` (the header's
end) is a DataError naming its line: read with a comma as the decimal mark it
would be a wrong number. The work is a few array operations a byte, a chunk of
lines at a time (``CHUNK`` bytes), so a file of a GB takes seconds, not minutes.
"""

from __future__ import annotations

import numpy as np

from dtcli.errors import DataError
from dtcli.io.csv.scan import CHUNK, CR, LF, ends_between

COMMA, POINT = ord(","), ord(".")
NUMBER_BYTES = np.zeros(256, dtype=bool)
NUMBER_BYTES[list(b'0123456789+-eE ",.')] = True
DIGITS = np.zeros(256, dtype=bool)
DIGITS[list(b"0123456789")] = True


def decimal_points(data, sep: str, source: str, start: int = 0) -> bytearray:
    """The copy of ``data`` with decimal points (see the module)."""
    out = bytearray(data)
    raw = np.frombuffer(out, dtype=np.uint8)
    separator = ord(sep)
    offset = 0
    while offset < len(raw):
        stop = out.find(b"\n", min(offset + CHUNK, len(raw))) + 1 or len(raw)  # whole lines a chunk
        part = raw[offset:stop]
        points = _mark_cells(part, separator, POINT)
        points = points[points + offset >= start]
        if len(points):
            _refuse(out, offset + int(points[0]), separator, source)
        commas = _mark_cells(part, separator, COMMA)
        part[commas] = POINT
        offset = stop
    return out


def _mark_cells(part: np.ndarray, separator: int, mark: int) -> np.ndarray:
    """Where ``mark`` stands, followed by a digit, in a cell of number bytes holding one comma at
    most and one ``mark`` (a point among commas: 1.234,5 counts). Counts are per cell (``reduceat``
    over the cells' starts), never a running sum per byte."""
    marks = np.flatnonzero(part == mark)
    if not len(marks):
        return marks
    bound = (part == separator) | (part == LF) | (part == CR)
    bounds = np.flatnonzero(bound)
    starts = np.concatenate([[0], bounds + 1])
    starts = starts[starts < len(part)]
    cell = np.searchsorted(bounds, marks)  # (a cell's index is that of the bound ending it)
    other = np.add.reduceat((~NUMBER_BYTES[part] & ~bound).view(np.uint8), starts, dtype=np.int64)[cell]
    commas = np.add.reduceat((part == COMMA).view(np.uint8), starts, dtype=np.int64)[cell]
    after = part[np.minimum(marks + 1, len(part) - 1)]
    return marks[(other == 0) & (commas <= 1) & DIGITS[after] & (marks + 1 < len(part))]


def _refuse(data: bytearray, at: int, separator: int, source: str) -> None:
    """The error for the cell written with a point at byte ``at``."""
    begin = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at), data.rfind(bytes([separator]), 0, at)) + 1
    ends = [i for i in (data.find(b"\n", at), data.find(b"\r", at), data.find(bytes([separator]), at)) if i >= 0]
    cell = bytes(data[begin : min(ends, default=len(data))]).decode("utf-8").strip(' "')
    line_start = max(data.rfind(b"\n", 0, at), data.rfind(b"\r", 0, at)) + 1
    line = 1 + ends_between(data, 0, line_start)
    raise DataError(
        f"{source}, line {line}: {cell!r} is written with a point, but this file's decimal mark is ',' "
        "(5,1); a point grouping thousands (1.234,5) is not read: write the number without grouping, or give "
        "--decimal . if the point is the decimal mark"
    )
