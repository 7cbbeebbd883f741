"""When a nominal column looks like an identifier (a different value on nearly every row), in plain Python.

Information gain favours such many-valued attributes (Mitchell §3.7.3, the
"Date" example): ``dtree`` warns of them. ``table.identifier_columns`` applies
the rule to a Table; ``dtree gain``'s plain path to its lists of codes.
"""

from __future__ import annotations

IDENTIFIER_SHARE = 0.9  # a nominal column with a different value on at least this share of its rows looks like an ID
IDENTIFIER_MIN_ROWS = 6  # below this many rows with a value, every column looks like one


def may_identify(n_values: int, known: int) -> bool:
    """Whether a nominal column of ``n_values`` values, ``known`` of its rows with one, can look like an
    identifier at all (it cannot unless it has that many values)."""
    return n_values >= IDENTIFIER_MIN_ROWS and known >= IDENTIFIER_MIN_ROWS and n_values >= IDENTIFIER_SHARE * known


def identifies(distinct: int, known: int) -> bool:
    """Whether ``distinct`` different values among ``known`` rows with a value make an identifier."""
    return distinct >= IDENTIFIER_SHARE * known


def identifier_message(source: str, name: str, distinct: int, known: int, shown=str) -> str:
    """The warning for one identifier-like column (``shown``: how names are printed)."""
    option = f"--ignore {shown(name)}" if name.isidentifier() else f"--ignore '{shown(name)}'"
    return (
        f"{source}: column {shown(name)} has {distinct} different values in {known} rows, as an "
        f"identifier has; information gain favours such many-valued attributes (Mitchell 3.7.3, the Date "
        f"example): leave it out with {option}"
    )
