"""csv_scan.content_lines against a line-by-line reading of the same bytes, over chunk borders."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.io.csv import scan as csv_scan
from dtcli.io.csv.scan import LONE_CR, content_lines


def by_line(data: bytes, sep: int) -> tuple[list, list, list]:
    """Each line holding something (its text without the line end, a CR before an LF being part of
    the end), read one line at a time: its number from 1, its fields, where its text stops."""
    numbers, fields, stops = [], [], []
    start = 0
    for number, line in enumerate(data.split(b"\n"), start=1):
        end = start + len(line)
        if end == len(data) and not line:  # after the last line end: no line
            break
        text_end = end - 1 if end < len(data) and line.endswith(b"\r") else end
        if text_end > start:
            numbers.append(number)
            fields.append(line.count(bytes([sep])) + 1)
            stops.append(text_end)
        start = end + 1
    return numbers, fields, stops


def scanned(data: bytes, sep: int) -> tuple[list, list, list]:
    parts = list(content_lines(np.frombuffer(data, dtype=np.uint8), sep))
    for numbers, fields, stops in parts:
        assert numbers.dtype == fields.dtype == stops.dtype == np.int64
    return tuple(sum((part[k].tolist() for part in parts), []) for k in range(3))


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64])
@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([b"\n", b"\r\n", b"\r", b",", b";", b"a", b" ", b"12"]), max_size=60))
def test_lines_holding_something_are_found_across_chunk_borders(chunk, pieces):
    data = LONE_CR.sub(b"\n", b"".join(pieces))  # lone CRs are mended before the scan
    old = csv_scan.CHUNK
    csv_scan.CHUNK = chunk
    try:
        for sep in (ord(","), ord(";")):
            assert scanned(data, sep) == by_line(data, sep)
    finally:
        csv_scan.CHUNK = old


def test_a_file_of_blank_lines_and_a_last_line_without_an_end():
    assert scanned(b"\r\n\n\n\r\n", ord(",")) == ([], [], [])
    assert scanned(b"a,b\n\r\n\nc,d,e", ord(",")) == ([1, 4], [2, 3], [3, 12])
    assert scanned(b"\r\nx;y", ord(",")) == ([2], [1], [5])
