"""The cost-complexity table (like rpart's cp table) as plain text and JSON."""

from __future__ import annotations

from dtcli.render.records import records_json, records_text

COLUMNS = [("alpha", 12, ".6g", "alpha"), ("leaves", 6, "d", "leaves"), ("train error", 12, ".6g", "train_error")]
CV_COLUMNS = [("CV error", 10, ".6g", "cv_error"), ("CV SE", 8, ".4g", "cv_se")]
FIELDS = ("alpha", "leaves", "train_error", "cv_error", "cv_se")


def cp_table(rows, chosen=None) -> str:
    """One line per subtree: alpha, leaves, training error, CV error and its SE; * marks the choice."""
    cv = any(r.cv_error is not None for r in rows)
    return records_text(rows, COLUMNS + (CV_COLUMNS if cv else []), lambda row: "*" if row is chosen else " ")


def cp_json(rows, chosen=None) -> str:
    """``{"format": "dtree-cp", "schema_version": 1, "rows": [...], "chosen": index or null}``."""
    return records_json(
        "dtree-cp", "rows", rows, FIELDS, after={"chosen": None if chosen is None else rows.index(chosen)}
    )
