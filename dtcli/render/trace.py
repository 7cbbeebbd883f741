"""Pruning traces: every node considered, the numbers compared, the decision."""

from __future__ import annotations

from dtcli.render.printable import shown
from dtcli.render.records import records_json


def trace_text(steps) -> str:
    """Every recorded decision, grouped by kind: chi-square checks, then pruning steps."""
    from dtcli.induction.criteria.chisquare import ChiStep
    from dtcli.induction.prune.reduced_error import Step as ReducedStep

    chi = [s for s in steps if isinstance(s, ChiStep)]
    reduced = [s for s in steps if isinstance(s, ReducedStep)]
    rest = [s for s in steps if not isinstance(s, (ChiStep, ReducedStep))]
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
    """``{"format": "dtree-trace", "version": 1, "method": "pessimistic", "steps": [...]}``."""
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
    """``{"format": "dtree-trace", "version": 1, "method": "reduced-error", "steps": [...]}``."""
    fields = ("node:path", "cases", "before", "after", "nodes", "leaves")
    return records_json("dtree-trace", "steps", steps, fields, before={"method": "reduced-error"})
