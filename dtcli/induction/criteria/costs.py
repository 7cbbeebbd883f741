"""Attribute costs (Mitchell §3.7.5): prefer cheap attributes when choosing splits.

With costs, a split's score is a cost-sensitive measure of its information
gain instead of the criterion:

- ``ratio``: Gain / Cost
- ``tan-schlimmer``: Gain^2 / Cost (Tan and Schlimmer 1990)
- ``nunez``: (2^Gain - 1) / (Cost + 1)^w, with w in [0, 1] (Nunez 1988)

Attributes without a listed cost cost 1. Costs are finite; for ``ratio`` and
``tan-schlimmer`` at least ``SMALLEST_COST``, so that no score overflows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from dtcli.errors import ParameterError
from dtcli.induction.names import MEASURES

SMALLEST_COST = 1e-300  # Gain / Cost and Gain^2 / Cost stay finite (gains are at most a few dozen bits)


@dataclass(frozen=True)
class AttributeCosts:
    """Costs by attribute name and the measure that combines them with gain."""

    costs: dict = field(default_factory=dict)
    measure: str = "ratio"
    nunez_w: float = 1.0

    def __post_init__(self):
        if self.measure not in MEASURES:
            raise ParameterError(f"--cost-measure must be one of {', '.join(MEASURES)}")
        if not 0 <= self.nunez_w <= 1:
            raise ParameterError("--nunez-w must be between 0 and 1")
        for name, cost in self.costs.items():
            if not math.isfinite(cost):
                raise ParameterError(f"the cost of {name!r} must be a finite number, not {float(cost)!r}")
            if 0 < cost < SMALLEST_COST and self.measure != "nunez":
                raise ParameterError(
                    f"the cost of {name!r} ({float(cost)!r}) is too small: a gain divided by it overflows; "
                    f"give costs of {SMALLEST_COST:g} or more"
                )
            if not cost > 0 and self.measure != "nunez":
                raise ParameterError(f"the cost of {name!r} must be positive for --cost-measure {self.measure}")
            if cost < 0:
                raise ParameterError(f"the cost of {name!r} must not be negative")

    def cost(self, name: str) -> float:
        return float(self.costs.get(name, 1.0))

    def score(self, gain: float, cost: float) -> float:
        if self.measure == "ratio":
            return gain / cost
        if self.measure == "tan-schlimmer":
            return gain * gain / cost
        return (2.0**gain - 1.0) / (cost + 1.0) ** self.nunez_w

    def as_dict(self) -> dict:
        return {"costs": dict(self.costs), "measure": self.measure, "nunez_w": self.nunez_w}


def cost_scores(costs: AttributeCosts, found, gains, attributes):
    """``costs.score`` of every found (node, attribute) gain at once, for the level-wise engine:
    the same arithmetic as the per-node path (numpy's division and multiplication are exact
    IEEE operations; Nunez's powers go through Python, as ``score`` computes them)."""
    import numpy as np

    cost = np.array([costs.cost(a.name) for a in attributes])
    scores = np.zeros_like(gains)
    if costs.measure == "ratio":
        np.divide(gains, cost, out=scores, where=found)
    elif costs.measure == "tan-schlimmer":
        np.divide(gains * gains, cost, out=scores, where=found)
    else:
        for node, a in zip(*np.nonzero(found)):
            scores[node, a] = costs.score(float(gains[node, a]), float(cost[a]))
    return scores
