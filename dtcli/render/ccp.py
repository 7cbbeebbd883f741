"""The cost-complexity table (like rpart's cp table) as plain text and JSON."""

from __future__ import annotations

import json


def cp_table(rows, chosen=None) -> str:
    """One line per subtree: alpha, leaves, training error, CV error and its SE; * marks the choice."""
    cv = any(r.cv_error is not None for r in rows)
    head = f"  {'alpha':>12} {'leaves':>6} {'train error':>12}"
    if cv:
        head += f" {'CV error':>10} {'CV SE':>8}"
    lines = [head]
    for row in rows:
        line = f"{'*' if row is chosen else ' '} {row.alpha:12.6g} {row.leaves:6d} {row.train_error:12.6g}"
        if cv:
            line += f" {row.cv_error:10.6g} {row.cv_se:8.4g}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def cp_json(rows, chosen=None) -> str:
    """``{"format": "dtree-cp", "version": 1, "rows": [...], "chosen": index or null}``."""
    doc = {
        "format": "dtree-cp",
        "version": 1,
        "rows": [
            {
                "alpha": r.alpha,
                "leaves": r.leaves,
                "train_error": r.train_error,
                "cv_error": r.cv_error,
                "cv_se": r.cv_se,
            }
            for r in rows
        ],
        "chosen": None if chosen is None else rows.index(chosen),
    }
    return json.dumps(doc, indent=2) + "\n"
