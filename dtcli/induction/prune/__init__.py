"""Pruning passes, each returning a simplified tree: collapse, pessimistic, reduced-error, cost-complexity, curve."""
