"""The accuracy-versus-size curve as a table (text) or JSON."""

from __future__ import annotations

import json


def curve_text(points) -> str:
    test = any(p.test is not None for p in points)
    lines = [f"{'nodes':>6} {'leaves':>6} {'training':>9} {'validation':>11}" + (f" {'test':>7}" if test else "")]
    for p in points:
        line = f"{p.nodes:6d} {p.leaves:6d} {p.training:9.4f} {p.validation:11.4f}"
        if test:
            line += f" {p.test:7.4f}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def curve_json(points) -> str:
    """``{"format": "dtree-curve", "version": 1, "points": [{nodes, leaves, training, validation, test}]}``."""
    doc = {
        "format": "dtree-curve",
        "version": 1,
        "points": [
            {"nodes": p.nodes, "leaves": p.leaves, "training": p.training, "validation": p.validation, "test": p.test}
            for p in points
        ],
    }
    return json.dumps(doc, indent=2) + "\n"
