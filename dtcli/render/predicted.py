"""The cells ``dtree predict`` adds to each CSV row: numbers formatted, quoted where they must be, a row's tail."""

from __future__ import annotations

import numpy as np


def added_columns(tree, predicted: np.ndarray, probabilities: np.ndarray, proba: bool, decimal: str = ".") -> dict:
    """The columns ``predict`` adds (arrays of str): prediction, and with ``proba`` (classification)
    proba_<class> for each class; numbers with the ``decimal`` mark (a decimal-comma file's rows, echoed,
    get ``0,25``, so that the output reads as its input does)."""
    if tree.schema.is_regression:
        return {"prediction": formatted(predicted, "{:.10g}", decimal)}
    columns = {"prediction": np.asarray(tree.classes, dtype=object)[predicted] if len(predicted) else []}
    if proba:
        for j, label in enumerate(tree.classes):
            columns[f"proba_{label}"] = formatted(probabilities[:, j], SHORTEST, decimal)
    return columns


def shortest(value: float) -> str:
    """The shortest decimal that reads back as ``value`` (Python's repr), a whole number without ``.0``."""
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


SHORTEST = "shortest"  # formatted's spec for ``shortest``: probabilities at full precision


def formatted(values: np.ndarray, spec: str, decimal: str = ".") -> np.ndarray:
    """``spec.format(v)`` (or with SHORTEST, ``shortest(v)``) of each float64 value (an array of str
    objects), formatted once per distinct value: distinct bit patterns, so -0.0 and 0.0 (and NaNs)
    keep their own text."""
    values = np.ascontiguousarray(values, dtype=np.float64)
    bits = values.view(np.int64)
    ordered = np.sort(bits)  # (np.unique imports numpy.ma: milliseconds of start-up)
    distinct = ordered[np.append(True, ordered[1:] != ordered[:-1])] if len(ordered) else ordered
    write = shortest if spec == SHORTEST else spec.format
    texts = np.array([write(v).replace(".", decimal) for v in distinct.view(np.float64).tolist()], dtype=object)
    return texts[np.searchsorted(distinct, bits)]


def row_tails(columns: dict, sep: str, quote_last: bool = False) -> list[str]:
    """Each row's new cells as text: a separator before each cell, a line end after the last;
    with ``quote_last``, the last column quoted where it must be (a path is seldom plain)."""
    cells = [_cells(values) for values in columns.values()]
    if quote_last:
        cells[-1] = np.array([quoted(str(v), sep) for v in cells[-1]], dtype=object)
    tails = np.full(len(cells[0]) if cells else 0, "", dtype=object)
    for values in cells:
        tails = tails + sep + values
    return (tails + "\n").tolist()


def _cells(values) -> np.ndarray:
    """A column's cells as an array of str (objects)."""
    if isinstance(values, np.ndarray) and values.dtype == object:
        return values
    return np.array([str(v) for v in values], dtype=object)


def plain(text: str, sep: str) -> bool:
    """True if ``text`` needs no CSV quoting."""
    return not any(c in text for c in (sep, '"', "\n", "\r"))


def quoted(text: str, sep: str) -> str:
    """``text`` as a CSV cell: as it is when plain, else in double quotes (inner ones doubled)."""
    return text if plain(text, sep) else '"' + text.replace('"', '""') + '"'
