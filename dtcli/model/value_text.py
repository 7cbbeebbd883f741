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
