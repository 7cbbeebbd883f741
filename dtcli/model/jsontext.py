"""JSON text byte for byte as ``json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False)`` writes it, faster.

The standard library encodes indented JSON in pure Python, one generator
per nesting level; a model of 250,000 nodes then takes tens of seconds.
This writer produces the same bytes (tests/model/test_jsontext.py checks it on
models and random documents) with one list of pieces and one join.
"""

from __future__ import annotations

from json.encoder import encode_basestring

_INF = float("inf")


def dumps(obj) -> str:
    """``obj`` (dicts, lists, tuples, str, int, float, bool, None, ``Lazy``) as indented JSON."""
    pieces: list[str] = []
    _write(obj, pieces, "\n")
    return "".join(pieces)


def dump(obj, write, chunk: int = 1 << 16) -> None:
    """``dumps(obj)`` passed to ``write`` in parts, so that a large document never sits in
    memory whole (with ``Lazy`` values, nor does the structure behind it)."""
    pieces = _Flushing(write, chunk)
    _write(obj, pieces, "\n")
    pieces.flush()


class Lazy:
    """A value computed when it is written: ``make()`` returns the dict or list to write."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


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


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _write(obj, out: list, newline: str) -> None:
    kind = type(obj)
    if kind is dict:
        _write_dict(obj, out, newline)
    elif kind is str:
        out.append(encode_basestring(obj))
    elif kind is list or kind is tuple:
        _write_list(obj, out, newline)
    elif kind is Lazy:
        _write(obj.make(), out, newline)
        if type(out) is _Flushing and len(out) >= out.chunk:
            out.flush()
    elif isinstance(obj, dict):
        _write_dict(obj, out, newline)
    elif isinstance(obj, (list, tuple)):
        _write_list(obj, out, newline)
    else:
        out.append(_scalar(obj))


def _scalar(obj) -> str:
    if type(obj) is float:
        return _float(obj)
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, int):
        return int.__repr__(obj)
    if isinstance(obj, float):
        return _float(obj)
    if isinstance(obj, str):
        return encode_basestring(obj)
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _write_dict(obj: dict, out: list, newline: str) -> None:
    if not obj:
        out.append("{}")
        return
    inner = newline + "  "
    lead = "{" + inner
    for key in sorted(obj):
        value = obj[key]
        head = lead + encode_basestring(key if type(key) is str else _key(key)) + ": "
        lead = "," + inner
        kind = type(value)
        if kind is str:
            out.append(head + encode_basestring(value))
        elif kind is float:
            out.append(head + _float(value))
        else:
            out.append(head)
            _write(value, out, inner)
    out.append(newline + "}")


def _write_list(obj, out: list, newline: str) -> None:
    if not obj:
        out.append("[]")
        return
    inner = newline + "  "
    if all(type(item) is float for item in obj):  # class counts: one piece for the list
        out.append("[" + inner + ("," + inner).join(map(_float, obj)) + newline + "]")
        return
    lead = "[" + inner
    for item in obj:
        out.append(lead)
        lead = "," + inner
        _write(item, out, inner)
    out.append(newline + "]")


def _key(key) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, bool) or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, float):
        return _float(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {type(key).__name__}")
