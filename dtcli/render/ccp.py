"""The cost-complexity table (like rpart's cp table) as plain text and JSON, and as a trace."""

from __future__ import annotations

from dtcli.render.records import records_json, records_text

COLUMNS = [("alpha", 12, ".6g", "alpha"), ("leaves", 6, "d", "leaves"), ("train error", 12, ".6g", "train_error")]
CV_COLUMNS = [("CV error", 10, ".6g", "cv_error"), ("CV SE", 8, ".4g", "cv_se")]
FIELDS = ("alpha", "leaves", "train_error", "cv_error", "cv_se")


def cp_table(rows, chosen=None) -> str:
    """One line per subtree: alpha, leaves, training error, CV error and its SE; * marks the choice."""
    cv = any(r.cv_error is not None for r in rows)
    return records_text(rows, COLUMNS + (CV_COLUMNS if cv else []), lambda row: "*" if row is chosen else " ")


def cp_settings(ccp, alpha=None) -> dict:
    """How the alpha was chosen: ``alpha`` (the one pruned at, when known), ``cv_folds`` (null
    without cross-validation), ``one_se``, ``seed``."""
    settings = {} if alpha is None else {"alpha": alpha}
    settings.update(cv_folds=ccp.folds or None, one_se=ccp.one_se, seed=ccp.seed)
    return settings


def cp_json(rows, chosen=None, settings=None) -> str:
    """``{"format": "dtree-cp", "schema_version": 1, "rows": [...], "chosen": index or null}``, then
    ``settings`` (``cp_settings``) when given."""
    after = {"chosen": None if chosen is None else rows.index(chosen), **(settings or {})}
    return records_json("dtree-cp", "rows", rows, FIELDS, after=after)


def cp_trace_json(rows, chosen, settings) -> str:
    """``{"format": "dtree-trace", "schema_version": 1, "method": "cost-complexity", "steps": [the cp
    table's rows], "chosen": index, "alpha": ..., "cv_folds": ..., "one_se": ..., "seed": ...}``."""
    after = {"chosen": None if chosen is None else rows.index(chosen), **settings}
    return records_json("dtree-trace", "steps", rows, FIELDS, before={"method": "cost-complexity"}, after=after)


def cp_trace_text(rows, chosen, alpha: float) -> str:
    """The weakest-link sequence with the subtree kept at ``alpha`` marked."""
    title = f"Cost-complexity pruning at alpha {alpha:.6g} (every weakest link with g(t) <= alpha is cut):\n"
    return title + cp_table(rows, chosen)
