"""The record of one pessimistic pruning decision (``Step``), shared by the reference and the compiled pruning."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Step:
    """One pruning decision: where, the three estimates, and what was done."""

    path: str
    cases: float
    leaf: float
    tree: float
    branch: float | None
    action: str
