"""Traces: growth node by node (``render/growth.py``), chi-square checks, and every pruning decision.

``train --trace`` writes ``train_trace_text``, or with ``-f json`` the ``dtree-trace``
document ``train_trace_json``: ``{"format": "dtree-trace", "schema_version": 1, "method": the
pruning method, "steps": [the pruning steps, fields as in prune --trace], "growth": [one
record per node], "chi_square": [the chi-square checks]}``.
"""

from __future__ import annotations

import json

from dtcli.render.printable import shown
from dtcli.render.records import records_json


def _kinds(steps):
    from dtcli.induction.criteria.chisquare import ChiStep
    from dtcli.induction.grow.narrate import GrowStep
    from dtcli.induction.prune.reduced_error.prune import Step as ReducedStep

    growth = [s for s in steps if isinstance(s, GrowStep)]
    chi = [s for s in steps if isinstance(s, ChiStep)]
    reduced = [s for s in steps if isinstance(s, ReducedStep)]
    rest = [s for s in steps if not isinstance(s, (GrowStep, ChiStep, ReducedStep))]
    return growth, chi, reduced, rest


def train_trace_text(tree, ids=None) -> str:
    """The growth narration (when recorded), then ``trace_text`` of the other steps."""
    from dtcli.render.growth import Growth, growth_text

    growth, _, _, _ = _kinds(tree.trace)
    text = growth_text(Growth(growth, tree.classes, tree.parameters, ids, tree.schema.is_regression)) if growth else ""
    return text + trace_text(tree.trace)


def train_trace_json(tree, ids=None, cost_complexity=None) -> str:
    """The ``dtree-trace`` document of a training: pruning steps as ``prune --trace -f json``
    writes them (``method``, ``steps``), then ``growth`` and ``chi_square``; after --ccp-alpha or
    --cv-folds, ``cost_complexity``: the dtree-cp document's fields but ``format``, ``schema_version``."""
    from dtcli.render.growth import Growth, growth_records

    growth, chi, reduced, rest = _kinds(tree.trace)
    method = tree.parameters.get("pruning", {}).get("method", "none")
    pruning = reduced_json(reduced) if method == "reduced-error" else pessimistic_json(rest)
    doc = json.loads(pruning)
    doc["method"] = method
    doc["algorithm"] = tree.algorithm
    grown = Growth(growth, tree.classes, tree.parameters, ids, tree.schema.is_regression)
    doc["measure"] = grown.measure
    doc["growth"] = growth_records(grown)
    doc["chi_square"] = json.loads(records_json("chi", "steps", chi, CHI_FIELDS))["steps"]
    if cost_complexity is not None:
        doc["cost_complexity"] = cost_complexity
    return json.dumps(doc, indent=2) + "\n"


CHI_FIELDS = ("depth", "cases", "attribute", "statistic", "df", "p_value", "decision:action")


def trace_text(steps) -> str:
    """Every recorded decision but growth steps, grouped by kind: chi-square checks, then pruning steps."""
    _, chi, reduced, rest = _kinds(steps)
    parts = []
    if chi:
        parts.append(chi_text(chi))
    if reduced:
        parts.append(reduced_text(reduced))
    if rest:
        parts.append(pessimistic_text(rest))
    return "".join(parts) or "No pruning decisions were made\n"


def chi_text(steps) -> str:
    lines = [
        "Chi-square pre-pruning (a split needs p < alpha):",
        f"  {'depth':>5} {'cases':>9} {'chi2':>10} {'df':>3} {'p-value':>10}  decision  test",
    ]
    for s in steps:
        numbers = f"{s.depth:5d} {s.cases:9g} {s.statistic:10.4f} {s.df:3d} {s.p_value:10.4g}"
        lines.append(f"  {numbers}  {s.action:<8}  {shown(s.attribute)}")
    return "\n".join(lines) + "\n"


def pessimistic_text(steps) -> str:
    """One line per node, bottom-up: estimated errors of leaf, subtree and largest branch."""
    if not steps:
        return "Pessimistic pruning: no internal node to consider\n"
    lines = [
        "Pessimistic pruning (estimated errors; a leaf wins within 0.1):",
        f"  {'leaf':>9} {'subtree':>9} {'branch':>9}  decision  node",
    ]
    for step in steps:
        branch = "-" if step.branch is None else f"{step.branch:9.3f}"
        numbers = f"{step.leaf:9.3f} {step.tree:9.3f} {branch:>9}"
        lines.append(f"  {numbers}  {shown(step.action):<8}  {shown(step.path)} ({step.cases:g} cases)")
    return "\n".join(lines) + "\n"


def pessimistic_json(steps) -> str:
    """``{"format": "dtree-trace", "schema_version": 1, "method": "pessimistic", "steps": [...]}``."""
    fields = ("node:path", "cases", "leaf", "subtree:tree", "branch", "decision:action")
    return records_json("dtree-trace", "steps", steps, fields, before={"method": "pessimistic"})


def reduced_text(steps) -> str:
    """One line per pruning: validation accuracy before and after, and the size after."""
    if not steps:
        return "Reduced-error pruning: no node could be pruned without lowering validation accuracy\n"
    lines = [
        "Reduced-error pruning (validation accuracy; no worse is enough):",
        f"  {'before':>8} {'after':>8} {'nodes':>6}  node",
    ]
    for s in steps:
        lines.append(f"  {s.before:8.4f} {s.after:8.4f} {s.nodes:6d}  {shown(s.path)} ({s.cases:g} cases)")
    return "\n".join(lines) + "\n"


def reduced_json(steps) -> str:
    """``{"format": "dtree-trace", "schema_version": 1, "method": "reduced-error", "steps": [...]}``."""
    fields = ("node:path", "cases", "before", "after", "nodes", "leaves")
    return records_json("dtree-trace", "steps", steps, fields, before={"method": "reduced-error"})
