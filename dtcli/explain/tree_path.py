"""Whether ``dtree gain --where``'s conditions follow branches a tree takes, so that a node of it holds those rows.

A tree reaches the rows of ``--where A=v --where B<=t`` only if it splits on
``A`` at the root (``A = v`` a branch) and on ``B <= t`` below it, or the
other way round. ``off_path`` walks the conditions as a tree would: at the
rows met so far it asks which split the tree makes (``choice_at``, the same
decision the table stars) and takes a condition that is one of its branches;
when none is, the note says where the tree goes instead (a node of the tree
holds the rows only if the conditions are its branches, up to equivalent
thresholds: the stored one, or a number that prints as it does, as copied from
a printed tree). Plain Python: the numpy-free path of ``dtree gain`` uses it too.
"""

from __future__ import annotations

import math


def off_path(conditions: list, choice_at) -> str | None:
    """A note when the conditions do not follow the tree's branches, node by node, in some order (None:
    they do, or it cannot be told: a CART subset whose complement a condition may name).

    ``choice_at(conditions)`` is the split the tree makes at the rows meeting ``conditions``:
    ``(attribute, kind, threshold, values)`` with kind ``nominal``, ``numeric`` or ``subset``, and
    optionally the date format of a column of dates (its threshold then prints, and is matched, as a
    date), or None for a leaf.
    """
    left, taken = list(conditions), []
    while left:
        choice = choice_at(taken)
        where = "at the root" if not taken else "below " + " and ".join(map(str, taken))
        if choice is None:
            return f"a tree makes a leaf {where}, before the rest of the conditions"
        match = next((c for c in left if follows(c, choice)), None)
        if match is None:
            if choice[1] == "subset" and any(c.name == choice[0] for c in left):
                return None  # (A = v may be the complement of the subset named: not told apart here)
            return f"a tree splits {where} on {split_text(choice)}, and no --where condition is one of its branches"
        left.remove(match)
        taken.append(match)
    return None


def follows(condition, choice) -> bool:
    """Whether ``condition`` selects one branch of the split ``choice``."""
    name, kind, threshold, values, time = (*choice, "")[:5]
    if condition.name != name:
        return False
    if kind == "nominal":
        return condition.op == "="
    if kind == "subset":
        return condition.op in ("=", "!=") and tuple(values) == (condition.value,)
    if time:  # a date as the column's dates are written, or ISO 8601; the threshold as the tree prints it
        from dtcli.model.dates import date_format, parse_iso, threshold_text

        text = condition.value.strip()
        value = date_format(time).parse(text)
        value = parse_iso(text) if value is None else value
        return (
            condition.op in ("<=", ">")
            and value is not None
            and (value == threshold or threshold_text(value, time) == threshold_text(threshold, time))
        )
    try:
        value = float(condition.value)
    except ValueError:
        return False
    if condition.op not in ("<=", ">") or not math.isfinite(value):
        return False
    if value == threshold:
        return True
    from dtcli.model.number_text import format_threshold  # the threshold as the tree prints it, copied

    return format_threshold(value) == format_threshold(threshold)


def split_text(choice) -> str:
    name, kind, threshold, values, time = (*choice, "")[:5]
    if kind == "numeric" and time:
        from dtcli.model.dates import threshold_text

        return f"{name} <= {threshold_text(threshold, time)}"
    if kind == "numeric":
        from dtcli.model.number_text import format_threshold

        return f"{name} <= {format_threshold(threshold)}"
    if kind == "subset":
        from dtcli.model.value_text import value_set

        return f"{name} in {value_set(values)}"
    return name
