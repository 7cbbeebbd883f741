"""When a nominal column looks like an identifier (a different value on nearly every row), in plain Python.

Information gain favours such many-valued attributes (Mitchell §3.7.3, the
"Date" example): ``dtree`` warns of them. ``table.identifier_columns`` applies
the rule to a Table; ``dtree gain``'s plain path to its lists of codes.

Two rules: an identifier proper (a different value on at least 90% of the
rows with one, at least 6 such rows), and a near-identifier: more than half as
many values as rows, and at least 20 values. Past half, a value covers fewer
than two rows on average, so a split on it (one branch a value for ID3 and
C4.5) leaves mostly one-row branches, the overfitting of Mitchell's Date
example; 20 values keep small teaching tables, whose attributes have a few
values, quiet (14 rows with 8 values is no identifier).
"""

from __future__ import annotations

import re

DATE_LIKE = re.compile(r"\s*(\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2})([ T]\S*)?\s*")  # a date?

ISO_START = re.compile(r"\s*\d{4}-\d{2}-\d{2}(?:[T ]|\s*$)")  # dates written as ISO 8601 begins them

IDENTIFIER_SHARE = 0.9  # a nominal column with a different value on at least this share of its rows looks like an ID
IDENTIFIER_MIN_ROWS = 6  # below this many rows with a value, every column looks like one
NEAR_SHARE = 0.5  # more distinct values than this share of the rows with one: a near-identifier ...
NEAR_MIN_VALUES = 20  # ... if it has at least this many values


def may_identify(n_values: int, known: int) -> bool:
    """Whether a nominal column of ``n_values`` values, ``known`` of its rows with one, can look like an
    identifier at all (it cannot unless it has that many values)."""
    return n_values >= IDENTIFIER_MIN_ROWS and known >= IDENTIFIER_MIN_ROWS and identifies(n_values, known)


def identifies(distinct: int, known: int) -> bool:
    """Whether ``distinct`` different values among ``known`` rows with a value make an identifier or a
    near-identifier (see the module)."""
    return distinct >= IDENTIFIER_SHARE * known or (distinct >= NEAR_MIN_VALUES and distinct > NEAR_SHARE * known)


def identifier_message(source: str, name: str, distinct: int, known: int, shown=str, values=()) -> str:
    """The warning for one identifier-like column (``shown``: how names are printed; ``values``: the
    column's values, which say whether it seems to hold dates that are not read as such)."""
    option = f"--ignore {shown(name)}" if name.isidentifier() else f"--ignore '{shown(name)}'"
    if distinct < IDENTIFIER_SHARE * known:
        dates = all(DATE_LIKE.fullmatch(v) for v in values[:50])
        iso = dates and all(ISO_START.match(v) for v in values[:50])
        return (
            f"{source}: column {shown(name)} has {distinct:,} different values in {known:,} rows "
            f"({100 * distinct / known:.0f}%), fewer than two rows a value: information gain favours such "
            f"many-valued attributes (Mitchell 3.7.3, the Date example): leave it out with {option}"
            + ("; or, as it seems to hold dates, write every one as ISO 8601 (2024-03-15, 2024-03-15T10:30) "
               "and dtree reads them as time" if dates and not iso else "")
            + ("; or, as it seems to hold ISO 8601 dates, mend the cells that are none (a day the calendar "
               "lacks, another time zone) or write ? for them, and dtree reads them as time" if iso else "")
        )  # fmt: skip
    return (
        f"{source}: column {shown(name)} has {distinct} different values in {known} rows, as an "
        f"identifier has; information gain favours such many-valued attributes (Mitchell 3.7.3, the Date "
        f"example): leave it out with {option}"
    )


def numbers_rows(known: int, distinct: int, low: float, high: float, whole: bool) -> bool:
    """Whether a numeric column's ``known`` values (``distinct`` of them, from ``low`` to ``high``, all whole
    numbers if ``whole``) number the rows: a different whole number on every row, consecutive, at least
    ``NEAR_MIN_VALUES`` of them (a row number or a running ID, as a spreadsheet's first column often is)."""
    return whole and known >= NEAR_MIN_VALUES and distinct == known and high - low + 1 == known


def row_number_message(source: str, name: str, low: float, high: float, shown=str) -> str:
    """The warning for a column ``numbers_rows`` holds true of."""
    option = f"--ignore {shown(name)}" if name.isidentifier() else f"--ignore '{shown(name)}'"
    return (
        f"{source}: column {shown(name)} holds a different whole number on every row, {low:.0f} to {high:.0f}, as "
        f"a row number does: a tree may cut on it though the rows' order means nothing; if it only numbers "
        f"the rows, leave it out with {option}"
    )
