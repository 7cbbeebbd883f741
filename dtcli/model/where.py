"""Row conditions such as ``Outlook=Sunny`` or ``Temperature<=70`` (``--where``).

A condition compares one column with a value: ``=`` and ``!=`` for any
column, ``<``, ``<=``, ``>``, ``>=`` for numeric ones. Rows with a missing
value in the column never match. Names and values are found as ``colnames.find``
finds them. No numpy at import: ``dtree gain``'s plain path parses and applies
conditions with ``parse_condition`` and ``NUMERIC_OPS``.
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, NamedTuple

from dtcli.errors import ParameterError
from dtcli.model.colnames import find, missing_text

if TYPE_CHECKING:
    import numpy as np

    from dtcli.model.table import Table

_PATTERN = re.compile(r"^(?P<name>.+?)\s*(?P<op><=|>=|!=|=|<|>)\s*(?P<value>.*)$", re.S)
NUMERIC_OPS = {  # on numbers and on numpy arrays alike
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class Condition(NamedTuple):
    """``name op value``, as written by the user."""

    name: str
    op: str
    value: str

    def __str__(self) -> str:
        return f"{self.name}{self.op}{self.value}"


def parse_condition(text: str) -> Condition:
    """Parse ``NAME=VALUE`` (or another operator); ParameterError if malformed."""
    found = _PATTERN.match(text.strip())
    if not found or not found.group("name").strip():
        raise ParameterError(
            f"--where {text!r}: expected COLUMN=VALUE (or !=, <, <=, >, >=), e.g. --where Outlook=Sunny"
        )
    return Condition(found.group("name").strip(), found.group("op"), found.group("value").strip())


def named(table: Table, conditions: list[Condition]) -> list[Condition]:
    """The conditions with their attribute names and nominal values as ``table`` writes them
    (``colnames.find``: ``Café`` in NFD is the attribute ``Café`` in NFC); ParameterError for an
    unknown name or value (naming a near miss, ``colnames.near``) or a nominal one compared by size."""
    names = [a.name for a in table.attributes]
    found = []
    for condition in conditions:
        name = find(condition.name, names)
        if name is None:
            text = missing_text(condition.name, names, "attribute")
            raise ParameterError(f"--where {condition}: no attribute {condition.name!r}; {text}")
        attribute, value = table.attributes[names.index(name)], condition.value
        if attribute.is_nominal:
            if condition.op not in ("=", "!="):
                raise ParameterError(f"--where {condition}: {attribute.name!r} is nominal; use = or !=")
            value = find(condition.value, attribute.values)
            if value is None:
                text = missing_text(condition.value, attribute.values, "value", "its values are")
                raise ParameterError(
                    f"--where {condition}: {attribute.name!r} has no value {condition.value!r}; {text}"
                )
        found.append(Condition(name, condition.op, value))
    return found


def select(table: Table, conditions: list[Condition]) -> np.ndarray:
    """Indices of the rows that satisfy every condition (a conjunction)."""
    import numpy as np

    mask = np.ones(table.n_rows, dtype=bool)
    names = [a.name for a in table.attributes]
    for condition in named(table, conditions):
        mask &= _matches(table, names.index(condition.name), condition)
    return np.flatnonzero(mask)


def _date_value(attribute, condition: Condition) -> float:
    """The instant a --where condition on a column of dates names, written as the column's dates are or as
    ISO 8601 (as dtree predict reads them); else the error for a numeric column."""
    if attribute.time:
        from dtcli.model.dates import date_format, parse_iso

        value = date_format(attribute.time).parse(condition.value.strip())
        value = parse_iso(condition.value.strip()) if value is None else value
        if value is not None:
            return value
        raise ParameterError(
            f"--where {condition}: {attribute.name!r} holds dates; compare it with a date written as its "
            f"values are ({attribute.time}) or as ISO 8601 (2024-03-15)"
        )
    raise ParameterError(f"--where {condition}: {attribute.name!r} is numeric; compare it with a number")


def _matches(table: Table, i: int, condition: Condition) -> np.ndarray:
    import numpy as np

    attribute, column = table.attributes[i], table.columns[i]
    if attribute.is_nominal:  # (``named`` has checked the operator and found the value)
        code = attribute.code_of(condition.value)
        known = column >= 0
        return known & ((column == code) if condition.op == "=" else (column != code))
    try:
        value = float(condition.value)
    except ValueError:
        value = _date_value(attribute, condition)
    with np.errstate(invalid="ignore"):
        return NUMERIC_OPS[condition.op](column, value) & ~np.isnan(column)
