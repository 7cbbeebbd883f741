"""Row conditions such as ``Outlook=Sunny`` or ``Temperature<=70`` (``--where``).

A condition compares one column with a value: ``=`` and ``!=`` for any
column, ``<``, ``<=``, ``>``, ``>=`` for numeric ones. Rows with a missing
value in the column never match. No numpy at import: ``dtree gain``'s plain path
parses and applies conditions with ``parse_condition`` and ``NUMERIC_OPS``.
"""

from __future__ import annotations

import operator
import re
from typing import TYPE_CHECKING, NamedTuple

from dtcli.errors import ParameterError

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


def select(table: Table, conditions: list[Condition]) -> np.ndarray:
    """Indices of the rows that satisfy every condition (a conjunction)."""
    import numpy as np

    mask = np.ones(table.n_rows, dtype=bool)
    names = [a.name for a in table.attributes]
    for condition in conditions:
        if condition.name not in names:
            raise ParameterError(
                f"--where {condition}: no attribute {condition.name!r}; attributes are: {', '.join(names)}"
            )
        i = names.index(condition.name)
        mask &= _matches(table, i, condition)
    return np.flatnonzero(mask)


def _matches(table: Table, i: int, condition: Condition) -> np.ndarray:
    import numpy as np

    attribute, column = table.attributes[i], table.columns[i]
    if attribute.is_nominal:
        if condition.op not in ("=", "!="):
            raise ParameterError(f"--where {condition}: {attribute.name!r} is nominal; use = or !=")
        code = attribute.code_of(condition.value)
        if code < 0:
            raise ParameterError(
                f"--where {condition}: {attribute.name!r} has no value {condition.value!r}; "
                f"its values are: {', '.join(attribute.values)}"
            )
        known = column >= 0
        return known & ((column == code) if condition.op == "=" else (column != code))
    try:
        value = float(condition.value)
    except ValueError:
        raise ParameterError(f"--where {condition}: {attribute.name!r} is numeric; compare it with a number") from None
    with np.errstate(invalid="ignore"):
        return NUMERIC_OPS[condition.op](column, value) & ~np.isnan(column)
