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

    grow: GrowParams
    prune: PruneParams = DEFAULT_PRUNING
    ccp: CostComplexity = CostComplexity()
    engine: str = "auto"

    def fit(self, table: Table, progress=None, narrate: bool = False, grown=None, cp_table=None):
        """(tree, warnings): the tree ``train`` grows and prunes on ``table``, then pruned by cost
        complexity when asked. ``grown(tree)`` sees the tree before cost-complexity pruning (a trace
        is written from it); ``cp_table(rows, chosen)`` receives the table of alphas cross-validation
        chose from. ``progress`` and ``narrate`` are ``algorithms.train``'s."""
        from dtcli.induction.algorithms import train

        tree, warnings = train(table, self.grow, self.prune, self.engine, progress, narrate, narrate=narrate)
        if grown is not None:
            grown(tree)
        if self.ccp.wanted:
            tree = self._cost_complexity(tree, table, cp_table)
        return tree, warnings

    def _cost_complexity(self, tree: Tree, table: Table, cp_table) -> Tree:
        from dtcli.induction.prune.ccp_select import cost_complexity

        check_cost_complexity(self.ccp, int(table.labelled().sum()))
        pruned, rows, chosen = cost_complexity(tree, table, self.ccp, self.engine)
        if self.ccp.folds and cp_table is not None:
            cp_table(rows, chosen)
        return pruned
