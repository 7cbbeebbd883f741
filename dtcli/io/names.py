"""Column names as options give them: repeatable, comma-separated, in plain Python (no numpy).

Names are found as ``model/colnames.py`` says (a name in another Unicode normal
form is that column); one that is not there is a DataError naming a near miss.
"""

from __future__ import annotations

from dtcli.errors import DataError
from dtcli.model.colnames import find, finder, missing_text, near


def split_names(values, columns) -> list[str]:
    """Column names from repeatable, comma-separated options (a name with commas is kept whole)."""
    names: list[str] = []
    for value in values:
        if find(value, columns) is not None:  # (the name itself, in any normal form: colnames)
            names.append(value)
        else:
            names.extend(part.strip() for part in value.split(",") if part.strip())
    return names


def resolved(columns: list, names: list[str], option: str, source: str) -> list[str]:
    """The ``columns`` that ``names`` (from ``option``) are, as the header writes them; DataError for
    one that is not there, naming a near miss (``colnames.near``) or else the columns."""
    column_of, found = finder(columns), []
    for name in names:
        column = column_of(name)
        if column is None:
            raise DataError(f"{source}: no column {name!r} (from {option}); {missing_text(name, columns)}")
        found.append(column)
    return found


def check_columns(schema, columns: list, source: str) -> None:
    """DataError unless every attribute of a model's ``schema`` is one of the data's ``columns``,
    naming a near miss of each one that is not (``colnames.near``), else the columns."""
    column_of = finder(columns)
    missing = [a.name for a in schema.attributes if column_of(a.name) is None]
    if not missing:
        return
    close = [f"column {text}" for text in (near(name, columns) for name in missing) if text is not None]
    listing = "; ".join(close) if close else f"columns are: {', '.join(map(str, columns))}"
    raise DataError(
        f"{source}: the model needs column(s) {', '.join(map(repr, missing))}, which the data lacks; {listing}"
    )
