"""Column names as options give them: repeatable, comma-separated, in plain Python (no numpy)."""

from __future__ import annotations

from dtcli.model.colnames import find


def split_names(values, columns) -> list[str]:
    """Column names from repeatable, comma-separated options (a name with commas is kept whole)."""
    names: list[str] = []
    for value in values:
        if find(value, columns) is not None:  # (the name itself, in any normal form: colnames)
            names.append(value)
        else:
            names.extend(part.strip() for part in value.split(",") if part.strip())
    return names
