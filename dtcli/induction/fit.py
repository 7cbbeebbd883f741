"""One set of training options (a ``Learner``) and the one way to fit it: growth, pruning, cost complexity.

``dtree train`` fits a Learner to its table; cross-validation, the percentage split
and a test file fit the very same Learner to other rows, so what is judged is what
``train`` would have built.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtcli.induction.params import DEFAULT_PRUNING, CostComplexity, GrowParams, PruneParams, check_cost_complexity
from dtcli.model.table import Table
from dtcli.model.tree import Tree


@dataclass(frozen=True)
class Learner:
    """The growth parameters, the pruning after growth, cost-complexity pruning and the engine asked for."""

    grow_params: GrowParams
    prune: PruneParams = DEFAULT_PRUNING
    ccp: CostComplexity = CostComplexity()
    engine: str = "auto"

    def grow(self, table: Table, progress=None, narrate: bool = False):
        """(tree, warnings): the tree grown and pruned after growth, before cost complexity
        (``algorithms.train``; ``progress`` and ``narrate`` are its)."""
        from dtcli.induction.algorithms import train

        return train(table, self.grow_params, self.prune, self.engine, progress, narrate, narrate=narrate)

    def fit(self, table: Table) -> tuple[Tree, list[str]]:
        """(tree, warnings): the tree ``dtree train`` makes of ``table``: grown, pruned, then pruned by
        cost complexity when asked (at its alpha, or at the alpha its cross-validation picks)."""
        tree, warnings = self.grow(table)
        if self.ccp.wanted:
            from dtcli.induction.prune.ccp.select import cost_complexity

            check_cost_complexity(self.ccp, int(table.labelled().sum()))
            tree = cost_complexity(tree, table, self.ccp, self.engine)[0]
        return tree, warnings
