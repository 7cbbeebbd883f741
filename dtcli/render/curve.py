"""The accuracy-versus-size curve as a table (text) or JSON."""

from __future__ import annotations

from dtcli.render.records import records_json, records_text

COLUMNS = [("nodes", 6, "d", "nodes"), ("leaves", 6, "d", "leaves"), ("training", 9, ".4f", "training")]
COLUMNS += [("validation", 11, ".4f", "validation")]
FIELDS = ("nodes", "leaves", "training", "validation", "test")


def curve_text(points) -> str:
    test = any(p.test is not None for p in points)
    return records_text(points, COLUMNS + ([("test", 7, ".4f", "test")] if test else []))


def curve_json(points) -> str:
    """``{"format": "dtree-curve", "schema_version": 1, "points": [{nodes, leaves, training, validation, test}]}``."""
    return records_json("dtree-curve", "points", points, FIELDS)
