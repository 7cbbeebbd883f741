"""A JSON reader with an explicit stack: ``json.loads``'s result and errors at any nesting depth, up to a limit.

``json.loads`` recurses (in C) once per nesting level and raises
``RecursionError`` past about a thousand; a tree of a few hundred levels
nests that deep. ``loads(text, max_depth)`` reads the same documents to the
same Python values (objects, arrays, strings through ``json``'s own
``scanstring``, ints, floats, ``NaN``/``Infinity``/``-Infinity``, duplicate
keys keeping the last value) and raises ``json.JSONDecodeError`` with the
same message and position for the same mistakes. More than ``max_depth``
containers open at once (an empty one holds nothing and does not count)
raises :class:`TooDeep` instead of using memory without bound.
Callers keep ``json.loads`` as the fast path and come here when it fails for
depth.
"""

from __future__ import annotations

import json
import re
from json import JSONDecodeError
from json.decoder import scanstring

_WS = re.compile(r"[ \t\n\r]*").match
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?").match  # ASCII digits, as json's C scanner
_SPACE = " \t\n\r"
_CONSTANTS = (("null", None), ("true", True), ("false", False))
_SPECIAL = {"N": ("NaN", float("nan")), "I": ("Infinity", float("inf")), "-": ("-Infinity", float("-inf"))}


class TooDeep(ValueError):
    """The document nests deeper than ``limit`` containers; ``pos`` is where the one past it opens."""

    def __init__(self, limit: int, pos: int):
        self.limit, self.pos = limit, pos
        super().__init__(f"JSON nested deeper than {limit} levels (at character {pos})")


def loads(text: str, max_depth: int):
    """``json.loads(text)`` without recursion; TooDeep past ``max_depth`` nested containers."""
    if text.startswith("\ufeff"):
        raise JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    value, end = _Parser(text, max_depth).run(_WS(text, 0).end())
    end = _WS(text, end).end()
    if end != len(text):
        raise JSONDecodeError("Extra data", text, end)
    return value


class _Parser:
    """One document: ``stack`` holds the open containers, each ``[list]`` for an array or
    ``[pairs, key]`` for an object (its pairs so far and the key whose value comes next)."""

    def __init__(self, text: str, max_depth: int):
        self.s, self.limit = text, max_depth
        self.stack: list[list] = []

    def run(self, idx: int):
        """The value starting at ``idx`` and the index after it."""
        while True:
            value, idx = self.value(idx)
            while value is _OPENED:  # a container opened: its first value (or its end) comes next
                value, idx = self.value(idx)
            while True:  # a value is complete: add it to the innermost container, maybe closing it
                if not self.stack:
                    return value, idx
                frame = self.stack[-1]
                closed, idx = (
                    self.array_next(frame, value, idx) if len(frame) == 1 else self.object_next(frame, value, idx)
                )
                if closed is _OPENED:
                    break
                value = closed

    def value(self, idx: int):
        """A scalar and the index after it, an empty container, or ``_OPENED`` after pushing a
        non-empty container (``idx`` then at its first value)."""
        s = self.s
        char = s[idx : idx + 1]
        if char == '"':
            return scanstring(s, idx + 1, True)
        if char == "{":
            return self.open_object(idx + 1)
        if char == "[":
            return self.open_array(idx + 1)
        for word, constant in _CONSTANTS:
            if char == word[0] and s.startswith(word, idx):
                return constant, idx + len(word)
        found = _NUMBER(s, idx)
        if found is not None:
            integer, frac, exp = found.groups()
            if frac or exp:
                return float(integer + (frac or "") + (exp or "")), found.end()
            try:
                return int(integer), found.end()
            except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
                raise JSONDecodeError("Number too long", s, idx) from None
        special = _SPECIAL.get(char)
        if special is not None and s.startswith(special[0], idx):
            return special[1], idx + len(special[0])
        raise JSONDecodeError("Expecting value", s, idx)

    def push(self, frame: list, start: int) -> None:
        if len(self.stack) >= self.limit:
            raise TooDeep(self.limit, start)
        self.stack.append(frame)

    def open_array(self, idx: int):
        s, start = self.s, idx - 1
        char = s[idx : idx + 1]
        if char in _SPACE:
            idx = _WS(s, idx + 1).end()
            char = s[idx : idx + 1]
        if char == "]":
            return [], idx + 1
        self.push([[]], start)
        return _OPENED, idx

    def array_next(self, frame: list, value, idx: int):
        s = self.s
        frame[0].append(value)
        char = s[idx : idx + 1]
        if char in _SPACE:
            idx = _WS(s, idx + 1).end()
            char = s[idx : idx + 1]
        idx += 1
        if char == "]":
            self.stack.pop()
            return frame[0], idx
        if char != ",":
            raise JSONDecodeError("Expecting ',' delimiter", s, idx - 1)
        comma = idx - 1
        idx = _WS(s, idx).end()
        if s[idx : idx + 1] == "]" and _trailing("array"):
            raise JSONDecodeError(_trailing("array"), s, comma)
        return _OPENED, idx

    def open_object(self, idx: int):
        s, start = self.s, idx - 1
        char = s[idx : idx + 1]
        if char != '"':
            if char in _SPACE:
                idx = _WS(s, idx).end()
                char = s[idx : idx + 1]
            if char == "}":
                return {}, idx + 1
            if char != '"':
                raise JSONDecodeError("Expecting property name enclosed in double quotes", s, idx)
        frame = [[], None]
        self.push(frame, start)
        return self.key(frame, idx + 1)

    def key(self, frame: list, idx: int):
        """Read a key (``idx`` just after its opening quote) and the ``:``; the value comes next."""
        s = self.s
        key, idx = scanstring(s, idx, True)
        if s[idx : idx + 1] != ":":
            idx = _WS(s, idx).end()
            if s[idx : idx + 1] != ":":
                raise JSONDecodeError("Expecting ':' delimiter", s, idx)
        frame[1] = key
        return _OPENED, _WS(s, idx + 1).end()

    def object_next(self, frame: list, value, idx: int):
        s = self.s
        frame[0].append((frame[1], value))
        char = s[idx : idx + 1]
        if char in _SPACE:
            idx = _WS(s, idx + 1).end()
            char = s[idx : idx + 1]
        idx += 1
        if char == "}":
            self.stack.pop()
            return dict(frame[0]), idx
        if char != ",":
            raise JSONDecodeError("Expecting ',' delimiter", s, idx - 1)
        comma = idx - 1
        idx = _WS(s, idx).end()
        char = s[idx : idx + 1]
        idx += 1
        if char != '"':
            if char == "}" and _trailing("object"):
                raise JSONDecodeError(_trailing("object"), s, comma)
            raise JSONDecodeError("Expecting property name enclosed in double quotes", s, idx - 1)
        return self.key(frame, idx)


_OPENED = object()  # "a container was opened": its contents come next
_TRAILING: dict[str, str | None] = {}


def _trailing(kind: str) -> str | None:
    """The message this Python's ``json`` gives for a trailing comma in an ``kind`` (3.13 names it;
    older versions report the value or name they expected), learned once by asking it."""
    if kind not in _TRAILING:
        try:
            json.loads("[1,]" if kind == "array" else '{"a":1,}')
        except JSONDecodeError as exc:
            _TRAILING[kind] = exc.msg if "trailing comma" in exc.msg else None
    return _TRAILING[kind]


_SURROGATE = re.compile("[\ud800-\udfff]")


def may_hold_surrogates(text: str) -> bool:
    """False when no string parsed from ``text`` can hold a surrogate: no ``\\ud``/``\\uD`` escape
    (the others stand for other characters) and no surrogate character (text read with
    ``surrogateescape`` has them). The common case, and found at C speed."""
    if "\\u" in text and ("\\ud" in text or "\\uD" in text):  # one search in the common case
        return True
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def lone_surrogate(doc) -> list | None:
    """The keys and indices leading to the first string (value or key) of the parsed ``doc``
    that holds a surrogate code point (escapes that paired up became one character), else None."""
    stack = [(None, doc)]  # (the path as a chain (parent chain, key), value)
    while stack:
        link, value = stack.pop()
        if type(value) is str:
            if _SURROGATE.search(value):
                return _unchain(link)
        elif type(value) is dict:
            for key in value:
                if _SURROGATE.search(key):
                    return _unchain((link, key))
            stack.extend(((link, key), item) for key, item in reversed(value.items()))
        elif type(value) is list:
            stack.extend(((link, i), value[i]) for i in range(len(value) - 1, -1, -1))
    return None


def _unchain(link) -> list:
    parts = []
    while link is not None:
        link, key = link
        parts.append(key)
    return parts[::-1]
