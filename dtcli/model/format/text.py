"""JSON text byte for byte as ``json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False)`` writes it, faster.

The standard library encodes indented JSON in pure Python, one generator
per nesting level; a model of 250,000 nodes then takes tens of seconds.
This writer produces the same bytes (tests/model/format/test_jsontext.py checks it on
models and random documents) with one list of pieces and one join. It walks
the document with an explicit stack, so any nesting depth is written.

Indented text grows with the square of the nesting depth (a line at level
``d`` starts with ``2d`` spaces); ``compact_from=N`` writes containers nested
``N`` or more levels deep without line breaks or spaces, as
``json.dumps(separators=(",", ":"))`` would, so a deep document stays in
proportion to its content.
"""

from __future__ import annotations

from itertools import chain, repeat
from json.encoder import encode_basestring

_INF = float("inf")


def dumps(obj, compact_from: int | None = None) -> str:
    """``obj`` (dicts, lists, tuples, str, int, float, bool, None, ``Lazy``, ``Raw``) as indented JSON
    (containers nested ``compact_from`` levels or deeper, compact)."""
    pieces: list[str] = []
    _write(obj, pieces, "\n", compact_from)
    return "".join(pieces)


def dump(obj, write, chunk: int = 1 << 16, compact_from: int | None = None) -> None:
    """``dumps(obj, compact_from)`` passed to ``write`` in parts, so that a large document never
    sits in memory whole (with ``Lazy`` values, nor does the structure behind it)."""
    pieces = _Flushing(write, chunk)
    _write(obj, pieces, "\n", compact_from)
    pieces.flush()


class Lazy:
    """A value computed when it is written: ``make()`` returns the dict or list to write."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


class Raw:
    """A value already written as JSON text (``text``), put in as it is."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _Flushing(list):
    """A list of pieces handed to ``write`` once it holds ``chunk`` of them (checked after each
    ``Lazy`` value, the unit of a large document)."""

    def __init__(self, write, chunk: int):
        super().__init__()
        self.write, self.chunk = write, chunk

    def flush(self) -> None:
        if self:
            self.write("".join(self))
            self.clear()


def float_text(value: float) -> str:
    """A float as JSON text, as ``json.dumps`` writes it (``NaN``, ``Infinity`` included)."""
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _write(obj, out: list, newline: str, compact_from: int | None = None) -> None:
    """Append the pieces of ``obj``'s text to ``out``; ``newline`` is the line break and indent
    of the level ``obj`` sits at. One frame a container being written: its remaining
    (text before the value, value) pairs, its closing text, its children's indent (None:
    compact), and whether it came from a ``Lazy`` (then ``out`` may flush once it is closed);
    the stack holds the frames of the containers around it."""
    append = out.append
    flushing = type(out) is _Flushing
    compact_from = -1 if compact_from is None else compact_from
    stack: list = []
    items, close, inner, lazy = iter((("", obj),)), "", newline, False
    while True:
        for head, value in items:
            kind = type(value)
            if kind is str:
                append(head + encode_basestring(value))
                continue
            if kind is float:
                append(head + float_text(value))
                continue
            made = kind is Lazy
            while kind is Lazy:
                value = value.make()
                kind = type(value)
            if kind is Raw:
                append(head + value.text)
            elif kind is dict or kind is list or kind is tuple or isinstance(value, (dict, list, tuple)):
                if inner is not None and len(stack) == compact_from:
                    inner = None
                opened = _open(value, head, inner, append)
                if opened is not None:
                    stack.append((items, close, inner, lazy))
                    items, close, inner, lazy = opened[0], opened[1], None if inner is None else inner + "  ", made
                    break
            else:
                append(head + _scalar(value))
            if made and flushing and len(out) >= out.chunk:
                out.flush()
        else:
            if close:
                append(close)
            if lazy and flushing and len(out) >= out.chunk:
                out.flush()
            if not stack:
                return
            items, close, inner, lazy = stack.pop()


def _open(value, head: str, newline: str | None, append):
    """Start writing the container ``value`` (at indent ``newline``; None: compact): the pairs of
    its items and its closing text, or None when it was written whole here (empty, or a list of
    floats)."""
    if newline is None:
        return _open_compact(value, head, append)
    inner = newline + "  "
    if isinstance(value, dict):
        if not value:
            append(head + "{}")
            return None
        keys = sorted(value)
        if head:
            append(head)
        heads = [encode_basestring(key if type(key) is str else _key(key)) + ": " for key in keys]
        heads[0] = "{" + inner + heads[0]
        lead = "," + inner
        for i in range(1, len(heads)):
            heads[i] = lead + heads[i]
        return zip(heads, map(value.__getitem__, keys)), newline + "}"
    if not value:
        append(head + "[]")
        return None
    if all(type(item) is float for item in value):  # class counts: one piece for the list
        append(head + "[" + inner + ("," + inner).join(map(float_text, value)) + newline + "]")
        return None
    if head:
        append(head)
    return zip(chain(("[" + inner,), repeat("," + inner)), value), newline + "]"


def _open_compact(value, head: str, append):
    """``_open`` for a container written without line breaks or spaces."""
    if isinstance(value, dict):
        if not value:
            append(head + "{}")
            return None
        keys = sorted(value)
        if head:  # apart: a first child's head would otherwise hold every opening above it
            append(head)
        heads = ["," + encode_basestring(key if type(key) is str else _key(key)) + ":" for key in keys]
        heads[0] = "{" + heads[0][1:]
        return zip(heads, map(value.__getitem__, keys)), "}"
    if not value:
        append(head + "[]")
        return None
    if all(type(item) is float for item in value):
        append(head + "[" + ",".join(map(float_text, value)) + "]")
        return None
    if head:
        append(head)
    return zip(chain(("[",), repeat(",")), value), "]"


def _scalar(obj) -> str:
    if type(obj) is float:
        return float_text(obj)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return int.__repr__(obj)
    if isinstance(obj, float):
        return float_text(obj)
    if isinstance(obj, str):
        return encode_basestring(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _key(key) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, float):
        return float_text(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
