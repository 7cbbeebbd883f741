"""Numeric targets that look like classes: the rule behind CART's note that it grows a regression tree.

A numeric target is regressed by CART and refused by ID3 and C4.5 unless ``--task classification``
reads its values as classes. A target whose known values are all whole numbers, at most
``CLASS_LIKE_VALUES`` distinct ones, with at least two rows a value on average (a 0-9 digit label,
a 1-5 rating, a 0/1 flag), is more likely meant as classes: CART still regresses it, and says so.
A continuous target (many distinct values, or any fraction) gets no note.
"""

from __future__ import annotations

import numpy as np

from dtcli.model.table import Table

CLASS_LIKE_VALUES = 30  # at most this many distinct whole numbers: the target may be class codes


def class_like(table: Table) -> int:
    """The number of distinct values of ``table``'s numeric target when they look like class codes
    (whole numbers, at most ``CLASS_LIKE_VALUES`` of them, at most half as many as labelled rows), else 0."""
    if not table.is_regression:
        return 0
    known = table.y[~np.isnan(table.y)]
    if not len(known) or not np.all(np.isfinite(known)) or np.any(known != np.floor(known)):
        return 0
    distinct = 1 + int(np.count_nonzero(np.diff(np.sort(known))))  # np.unique would import numpy.ma
    return distinct if distinct <= CLASS_LIKE_VALUES and 2 * distinct <= len(known) else 0


def regression_note(table: Table) -> str | None:
    """The one-line note that CART grows a regression tree on a class-like numeric target, or None."""
    distinct = class_like(table)
    if not distinct:
        return None
    name, numbers = table.schema.target.name, "value, a whole number" if distinct == 1 else "distinct whole numbers"
    return (
        f"{table.source}: the target {name!r} holds {distinct} {numbers}; CART grows a regression "
        "tree (each leaf predicts a mean): give --task classification to learn them as classes, or --task "
        "regression to keep the regression without this note"
    )
