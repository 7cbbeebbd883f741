"""Pruning traces: every node considered, the numbers compared, the decision."""

from __future__ import annotations

import json


def pessimistic_text(steps) -> str:
    """One line per node, bottom-up: estimated errors of leaf, subtree and largest branch."""
    if not steps:
        return "Pessimistic pruning: no internal node to consider\n"
    lines = ["Pessimistic pruning (estimated errors; a leaf wins within 0.1):",
             f"  {'leaf':>9} {'subtree':>9} {'branch':>9}  decision  node"]
    for step in steps:
        branch = "-" if step.branch is None else f"{step.branch:9.3f}"
        lines.append(f"  {step.leaf:9.3f} {step.tree:9.3f} {branch:>9}  {step.action:<8}  {step.path}"
                     f" ({step.cases:g} cases)")
    return "\n".join(lines) + "\n"


def pessimistic_json(steps) -> str:
    """``{"format": "dtree-trace", "version": 1, "method": "pessimistic", "steps": [...]}``."""
    doc = {
        "format": "dtree-trace", "version": 1, "method": "pessimistic",
        "steps": [{"node": s.path, "cases": s.cases, "leaf": s.leaf, "subtree": s.tree, "branch": s.branch,
                   "decision": s.action} for s in steps],
    }
    return json.dumps(doc, indent=2) + "\n"
