"""Array scans over a CSV file's bytes, a chunk at a time: line ends, lines that hold something, blank lines.

Line ends are LF, CRLF and a lone CR (as Python's ``csv`` module counts them
with ``newline=''``). Every scan works on ``CHUNK`` bytes at a time, so its
temporary arrays stay a few MiB (at most 8 bytes for each byte of a chunk) whatever
the file's size, and keeps nothing for a blank line: a file of a GiB of blank lines costs a few array operations
per byte and no memory beyond its bytes.
"""

from __future__ import annotations

import re

import numpy as np

CHUNK = 1 << 20
LF, CR = 10, 13
LONE_CR = re.compile(rb"\r(?!\n)")
BLANK_SHARE = 4  # the value parsers get a copy without blank lines when these are over 1/4 of the bytes


def shifted(raw: np.ndarray, offset: int, size: int, k: int) -> np.ndarray:
    """The bytes ``k`` places before those of the chunk at ``offset`` (an LF before the file's start)."""
    if offset >= k:
        return raw[offset - k : offset - k + size]
    return np.concatenate([np.full(k - offset, LF, dtype=np.uint8), raw[: offset - k + size]])


def next_content(raw: np.ndarray, position: int) -> int:
    """The first byte at or after ``position`` that is not a line end (len(raw) if none): the
    window grows from a few bytes, so a single blank line costs little and a long run is one scan."""
    size = 64
    while position < len(raw):
        part = raw[position : position + size]
        found = np.flatnonzero((part != LF) & (part != CR))
        if len(found):
            return position + int(found[0])
        position += len(part)
        size = min(size * 4, CHUNK)
    return len(raw)


def ends_between(data, start: int, stop: int) -> int:
    """The line ends in ``data[start:stop]`` (both at line boundaries): LF, CR and CRLF count once each."""
    lf = data.count(b"\n", start, stop)
    if data.find(b"\r", start, stop) < 0:  # the usual case: one pass
        return lf
    return lf + data.count(b"\r", start, stop) - data.count(b"\r\n", start, stop)


def mend_lone_cr(data: bytearray) -> None:
    """Every lone CR becomes an LF, in place (the same line end, one byte for one)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    for offset in range(0, len(raw), CHUNK):
        part = raw[offset : offset + CHUNK]
        after = raw[offset + 1 : offset + CHUNK + 1]  # one short at the end of the file
        lone = part == CR
        lone[: len(after)] &= after != LF
        part[lone] = LF


def content_lines(raw: np.ndarray, sep: int):
    """For each chunk, the lines that hold something (more than a line end): their numbers (from 1),
    fields (separators + 1) and where their text stops. Line ends: LF and CRLF (lone CRs mended before).
    Only the chunk's line ends and separators are looked at after one comparison each (a line's
    separators are those before its end: a sorted search among their places)."""
    lines = separators = last = 0  # lines ended, separators seen, separators up to the last line kept
    for offset in range(0, len(raw), CHUNK):
        part = raw[offset : offset + CHUNK]
        ends = np.flatnonzero(part == LF)
        seps = np.flatnonzero(part == sep)
        if len(ends):
            one, two = before(raw, ends + offset, 1), before(raw, ends + offset, 2)
            which = np.flatnonzero(((one != LF) & (one != CR)) | ((one == CR) & (two != LF)))  # holds something
            if len(which):
                kept = ends[which]
                at = separators + np.searchsorted(seps, kept).astype(np.int64)
                numbers, stops = lines + 1 + which.astype(np.int64), kept + offset - (one[which] == CR)
                yield numbers, np.diff(at, prepend=last) + 1, stops
                last = int(at[-1])
        lines += len(ends)
        separators += len(seps)
    if len(raw) and raw[-1] != LF:  # the last line has no line end, and holds something
        yield np.array([lines + 1]), np.array([separators - last + 1]), np.array([len(raw)])


def before(raw: np.ndarray, places: np.ndarray, k: int) -> np.ndarray:
    """The bytes ``k`` places before ``places`` (an LF before the file's start)."""
    out = raw[np.maximum(places - k, 0)]
    out[places < k] = LF
    return out


def without_blank_lines(data: bytearray) -> bytearray:
    """A copy of ``data`` (LF and CRLF line ends) without its blank lines."""
    raw = np.frombuffer(data, dtype=np.uint8)
    out = bytearray()
    for offset in range(0, len(raw), CHUNK):
        part = raw[offset : offset + CHUNK]
        one, two = shifted(raw, offset, len(part), 1), shifted(raw, offset, len(part), 2)
        after = raw[offset + 1 : offset + CHUNK + 1]
        blank_lf = (part == LF) & ((one == LF) | ((one == CR) & (two == LF)))
        blank_cr = (part == CR) & (one == LF)
        blank_cr[: len(after)] &= after == LF
        out += part[~(blank_lf | blank_cr)].tobytes()
    return out


def without_ranges(data: bytearray, ranges: list[tuple[int, int]]) -> bytearray:
    """A copy of ``data`` without the byte ranges ``ranges`` (in order, not overlapping)."""
    out, previous = bytearray(), 0
    for start, stop in ranges:
        out += data[previous:start]
        previous = stop
    out += data[previous:]
    return out
