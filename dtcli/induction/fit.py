"""One set of training options (a ``Learner``) and the one way to fit it: growth, pruning, cost complexity.

``cost_complexity`` is here, above pruning, because choosing its alpha by cross-validation regrows
the tree on each fold (``algorithms.regrow``); ``prune/ccp/`` holds the sequence and the choice.

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
            check_cost_complexity(self.ccp, int(table.labelled().sum()))
            tree = cost_complexity(tree, table, self.ccp, self.engine)[0]
        return tree, warnings


def cost_complexity(tree: Tree, table: Table | None, ccp: CostComplexity, engine: str = "auto"):
    """Prune ``tree`` at ``ccp.alpha``, or at the alpha ``ccp.folds``-fold cross-validation on
    ``table`` picks (the fold trees grown by the grower ``engine`` asks for, as in training).

    Returns (pruned tree, cp table rows, chosen row or None).
    """
    import numpy as np

    from dtcli.induction.algorithms import regrow
    from dtcli.induction.predict.apply import predict, predict_values
    from dtcli.induction.prune.ccp.select import cross_validate, pruned_tree, select, subtrees
    from dtcli.model.tree import Node

    criterion = tree.parameters.get("criterion", "gini")
    rows = subtrees(tree.root, criterion)
    chosen = None
    alpha = ccp.alpha
    if ccp.folds:

        def apply(root: Node, test: Table) -> np.ndarray:
            fold_tree = Tree(tree.schema, root, tree.algorithm, tree.parameters)
            return predict_values(fold_tree, test) if table.is_regression else predict(fold_tree, test)

        cross_validate(table, lambda part: regrow(tree, part, engine), apply, rows, criterion, ccp.folds, ccp.seed)
        chosen = select(rows, ccp.one_se)
        alpha = chosen.alpha
        info = {"cv_folds": ccp.folds, "one_se": ccp.one_se, "seed": ccp.seed}
    else:
        info = {}
    return pruned_tree(tree, float(alpha), criterion, info), rows, chosen
