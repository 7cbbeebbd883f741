"""Pruning passes, each returning a simplified tree: collapse, pessimistic, reduced-error, cost-complexity, curve.

``PRUNERS`` names them with a one-line description (what ``dtree prune --method``
offers is the subset that prunes a saved model: ``MODEL_PRUNERS``).
"""

PRUNERS = {
    "collapse": "C4.5's collapse of subtrees that do not lower the training error (J48's default)",
    "cost-complexity": "Breiman's weakest-link pruning at an alpha, given or chosen by cross-validation",
    "curve": "accuracy against tree size at every step of reduced-error pruning (Mitchell Fig. 3.7)",
    "pessimistic": "C4.5's error-based pruning with subtree raising (needs --data)",
    "reduced-error": "Mitchell's reduced-error pruning on a validation set (needs --validation)",
}
MODEL_PRUNERS = ("cost-complexity", "pessimistic", "reduced-error")
