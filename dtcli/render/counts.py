"""How class counts and numbers are written everywhere dtree prints them.

Two classes that read as positive/negative (yes/no, true/false, 1/0, ...)
print in Mitchell's style, ``[9+, 5-]``; any other classes as
``[No 5, Yes 9]``, in class order; with more than MANY_CLASSES classes only
the classes a node holds, ``[c3 12, c7 1]`` (a zero count is left out), and of
more than MANY_CLASSES such the largest, then the others' number and total:
``[c3 30, c7 28, c1 25, c2 25, c5 25, c9 25, 24 other classes 442]``.
"""

from __future__ import annotations

from dtcli.render.printable import shown

_POSITIVE = {"yes", "y", "true", "t", "1", "+", "pos", "positive", "p"}
_NEGATIVE = {"no", "n", "false", "f", "0", "-", "neg", "negative"}
MANY_CLASSES = 6  # above this many classes, counts list only the classes present


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
    """``[9+, 5-]`` or ``[No 5, Yes 9]``; with many classes, the non-zero counts only."""
    pair = signs(classes)
    if pair is not None:
        pos, neg = pair
        return f"[{number(counts[pos])}+, {number(counts[neg])}-]"
    pairs = [(shown(c), float(n)) for c, n in zip(classes, counts)]
    rest = ""
    if len(classes) > MANY_CLASSES:
        pairs = [(c, n) for c, n in pairs if n != 0]
        if len(pairs) > MANY_CLASSES:
            ranked = sorted(range(len(pairs)), key=lambda i: -pairs[i][1])  # stable: ties in class order
            others = ranked[MANY_CLASSES:]
            rest = f", {len(others)} other classes {number(sum(pairs[i][1] for i in others))}"
            pairs = [pairs[i] for i in ranked[:MANY_CLASSES]]
    return "[" + ", ".join(f"{c} {number(n)}" for c, n in pairs) + rest + "]"


def j48_number(value: float) -> str:
    """A count as Weka's J48 prints it: rounded to 2 decimals, Java style (``3.0``, ``1.27``)."""
    return repr(round(float(value), 2) + 0.0)
