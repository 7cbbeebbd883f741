"""Finding an escape for half a character in JSON text (dtcli/io/textcheck.lone_surrogate_escape).

The fast search is checked against the definition it replaced, kept here as the
reference: one regular expression that tries every position of the text (a
``\\uD800``-``\\uDFFF`` escape not after a backslash, after an even run of
backslashes), then pairs a high half with the low half right after it. The text
is checked as a str and as its UTF-8 bytes (positions then count bytes).
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.io.textcheck import lone_surrogate_escape

REFERENCE = re.compile(r"(?<!\\)(?:\\\\)*\\u([dD][89a-fA-F][0-9a-fA-F]{2})")


def reference(text: str) -> int | None:
    high = None
    for found in REFERENCE.finditer(text):
        code, start = int(found.group(1), 16), found.end() - 6
        if high is not None:
            if start != high[1] or code < 0xDC00:
                return high[0]
            high = None
        elif code < 0xDC00:
            high = (start, found.end())
        else:
            return start
    return None if high is None else high[0]


def check(text: str) -> None:
    expected = reference(text)
    assert lone_surrogate_escape(text) == expected
    data = text.encode("utf-8")
    at = lone_surrogate_escape(data)
    if expected is None:
        assert at is None
    else:  # the same escape, found at its byte position: the same line and the same six characters
        assert at == len(text[:expected].encode("utf-8"))
        assert data.count(b"\n", 0, at) == text.count("\n", 0, expected)
        assert data[at : at + 6].decode() == text[expected : expected + 6]
        assert lone_surrogate_escape(bytearray(data)) == at


PIECES = [
    "\\",
    "\\\\",
    "u",
    "\\u",
    "\\ud800",
    "\\uD83D",
    "\\udbff",
    "\\udc00",
    "\\uDE00",
    "\\uDFFF",
    "\\ud7ff",
    "\\ue000",
    "\\u00e9",
    "\\ud8",
    "d8",
    "dc00",
    "\n",
    '"',
    "x",
    "é",
    "😀",
    " ",
]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14))
def test_the_fast_search_agrees_with_the_reference(pieces):
    check("".join(pieces))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="\\udDcCeE089aAbBfF\n é", max_size=30))
def test_the_fast_search_agrees_on_any_text(text):
    check(text)


def test_worked_examples():
    assert lone_surrogate_escape('"\\ud83d\\ude00"') is None
    assert lone_surrogate_escape('"\\\\ud800"') is None  # an escaped backslash, then text
    assert lone_surrogate_escape('"\\\\\\ud800"') == 3
    assert lone_surrogate_escape('"x\\ud83d x\\ude00"') == 2
    assert lone_surrogate_escape('"é\\udc00"'.encode()) == 3  # bytes: é takes two
    assert lone_surrogate_escape("plain" * 1000) is None
