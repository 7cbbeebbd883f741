"""Names and values as dtree prints them for people: control characters escaped, so one value is one line.

A class label, attribute name or nominal value may hold a newline, a tab or
a terminal escape character. In trees, tables, rules text and traces such a
value is written escaped as Python writes it inside a string literal (``\\n``,
``\\r``, ``\\t``, ``\\x1b``, ``\\u2028``; a backslash as ``\\\\``), without quotes.
A value without control characters is written as it is, backslashes
included. Machine-readable outputs (JSON, CSV, the model file, generated
Python and SQL) keep the real value.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match) -> str:
    char = found.group()
    if char in _ESCAPES:
        return _ESCAPES[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(value: str) -> str:
    """``value`` as printed for people: unchanged unless it holds a control character, then
    with those (and backslashes) escaped."""
    if _CONTROL.search(value) is None:
        return value
    return re.sub(r"[\\\x00-\x1f\x7f-\x9f\u2028\u2029]", _escape, value)
