"""C4.5's error-based (pessimistic) pruning with subtree raising, as Weka's J48 does it.

The reference (``reference.py``) or, on large tables, the compiled kernels (``flat.py``), as the
caller says (``compiled``: ``backend.pessimistic_prune`` asks the engine choice and calls this).
Contract: ``pessimistic_prune(tree, table, cf, raising, bound)`` returns a new Tree and the
decisions; ``table`` is the training data (needed to redistribute cases when a subtree is raised).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dtcli.induction.params import fraction_grid
from dtcli.induction.prune.pessimistic.reference import TableCases, prune_cases, pruned_tree
from dtcli.induction.prune.pessimistic.steps import Step
from dtcli.model.table import Table
from dtcli.model.tree import Tree

if TYPE_CHECKING:  # (the flat tree's modules load only where one is pruned: a small table's run never)
    from dtcli.induction.grow.flat import FlatTree


def pessimistic_prune(
    tree: Tree,
    table: Table,
    cf: float = 0.25,
    raising: bool = True,
    bound: str = "j48",
    in_place: bool = False,
    flat: FlatTree | None = None,
    record: bool = True,
    compiled: bool = False,
) -> tuple[Tree, list[Step]]:
    """A pruned copy of ``tree`` (trained on ``table``) and the decisions taken, bottom-up.

    With ``in_place`` the given tree's nodes are reused (and changed) instead of copied.
    ``flat``: the tree as the level-wise engine grew it (``tree.root`` is then not used).
    ``compiled``: prune with the compiled kernels (``flat.py``; the reference where numba cannot run),
    with the same result; there, ``record=False`` skips listing the decisions (the steps are then empty).
    """
    if flat is None:
        original_leaves = tree.root.n_leaves()
        root = tree.root if in_place else tree.root.copy()
        if compiled:
            from dtcli.induction.grow.flat import from_nodes

            flat = from_nodes(root, table.attributes)
    else:
        from dtcli.induction.grow.flat import n_leaves

        original_leaves = n_leaves(flat)
    grid = fraction_grid(tree.algorithm, tree.parameters.get("max_bins"))
    done = None
    if flat is not None:
        from dtcli.induction.prune.pessimistic.flat import flat_prune

        done = flat_prune(flat, table, cf, raising, bound, record, grid)
    if done is not None:
        from dtcli.induction.compiling import remember

        remember(["prune"], table)  # (a variant the cache cannot name)
    if done is None and flat is not None and flat.nodes is None:
        root = flat.to_nodes()  # no compiler here after all: the reference does it
    if done is not None:
        pruned_root, steps = done
    else:
        cases = TableCases(table, grid)
        pruned_root, steps = prune_cases(root, cases.root, cases, cf, raising, bound)
    return pruned_tree(tree, pruned_root, cf, raising, bound, original_leaves), steps
