"""How nominal values print in a set, in plain Python: ``{a, b}``, quoted where a value would blur it.

No numpy here: ``dtree gain``'s plain path (``explain/tree_path.py``) prints sets with it too.
"""

from __future__ import annotations


def value_set(values, show=str) -> str:
    """``{a, b}``: nominal values as a set prints them (each written by ``show``), a value holding a comma,
    a brace or a double quote, or blanks at an end, in double quotes (inner ones doubled), so that
    ``{"Smith, John", Doe}`` reads as two values."""
    return "{" + ", ".join(_member(show(v)) for v in values) + "}"


def _member(text: str) -> str:
    if text and text == text.strip() and not any(c in text for c in ',{}"'):
        return text
    return '"' + text.replace('"', '""') + '"'


def lookalike_classes(classes) -> list[list[str]]:
    """The groups of ``classes`` that differ only in case or in blanks at the ends (``Yes``, ``yes``,
    ``YES ``), each in the classes' order: each is a class of its own to a tree, which a spreadsheet
    typed by hand rarely means."""
    groups: dict[str, list[str]] = {}
    for value in classes:
        groups.setdefault(value.strip().casefold(), []).append(value)
    return [group for group in groups.values() if len(group) > 1]


def lookalike_message(source: str, target: str, groups: list[list[str]], show=str) -> str:
    """The warning for ``lookalike_classes``' groups of the class column ``target`` of ``source``."""
    listed = "; ".join(", ".join(show(value) for value in group) for group in groups[:3])
    more = f" and {len(groups) - 3} more group(s)" if len(groups) > 3 else ""
    return (
        f"{source}: the class column {target!r} has values that differ only in case or blanks ({listed}{more}): "
        "each is a class of its own; write them alike if they are one class"
    )
