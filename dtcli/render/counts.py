"""How class counts and numbers are written everywhere dtree prints them.

Two classes that read as positive/negative (yes/no, true/false, 1/0, ...)
print in Mitchell's style, ``[9+, 5-]``; any other classes as
``[No 5, Yes 9]``, in class order.
"""

from __future__ import annotations

from dtcli.render.printable import shown

_POSITIVE = {"yes", "y", "true", "t", "1", "+", "pos", "positive", "p"}
_NEGATIVE = {"no", "n", "false", "f", "0", "-", "neg", "negative"}


def number(value: float) -> str:
    """A count: ``9`` for whole numbers, else up to two decimals (``3.5``, ``1.27``)."""
    value = float(value)
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def signs(classes) -> tuple[int, int] | None:
    """(positive index, negative index) if two classes read as +/-, else None."""
    if len(classes) != 2:
        return None
    lower = [c.strip().lower() for c in classes]
    if lower[0] in _POSITIVE and lower[1] in _NEGATIVE:
        return 0, 1
    if lower[1] in _POSITIVE and lower[0] in _NEGATIVE:
        return 1, 0
    return None


def class_counts(counts, classes) -> str:
    """``[9+, 5-]`` or ``[No 5, Yes 9]``."""
    pair = signs(classes)
    if pair is not None:
        pos, neg = pair
        return f"[{number(counts[pos])}+, {number(counts[neg])}-]"
    return "[" + ", ".join(f"{shown(c)} {number(n)}" for c, n in zip(classes, counts)) + "]"


def j48_number(value: float) -> str:
    """A count as Weka's J48 prints it: rounded to 2 decimals, Java style (``3.0``, ``1.27``)."""
    return repr(round(float(value), 2) + 0.0)
