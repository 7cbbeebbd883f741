"""Records (pruning steps, cp-table rows, curve points) as a plain text table or a versioned JSON document."""

from __future__ import annotations

import json


def records_text(items, columns, marker=None) -> str:
    """A header line of right-aligned titles, then one line per item.

    ``columns`` are ``(title, width, spec, attribute)``: the item's attribute
    formatted as ``{value:<width><spec>}``, columns one space apart. With
    ``marker``, every item line starts with ``marker(item)`` (one character)
    and a space, the header with two spaces.
    """
    header = " ".join(f"{title:>{width}}" for title, width, _, _ in columns)
    lines = [header if marker is None else f"  {header}"]
    for item in items:
        line = " ".join(format(getattr(item, attribute), f"{width}{spec}") for _, width, spec, attribute in columns)
        lines.append(line if marker is None else f"{marker(item)} {line}")
    return "\n".join(lines) + "\n"


def records_json(kind: str, key: str, items, fields, before=None, after=None) -> str:
    """``{"format": kind, "schema_version": 1, **before, key: [{name: item.attribute, ...}], **after}``, indented.

    ``fields`` name the record's fields in the order written: ``"name"`` for the
    item's attribute of that name, ``"name:attribute"`` for another attribute.
    """
    pairs = [(field.partition(":")[0], field.partition(":")[2] or field) for field in fields]
    records = [{name: getattr(item, attribute) for name, attribute in pairs} for item in items]
    doc = {"format": kind, "schema_version": 1, **(before or {}), key: records, **(after or {})}
    return json.dumps(doc, indent=2) + "\n"
