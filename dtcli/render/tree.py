"""Trees for people: a rich tree with counts and scores, or plain J48-style text.

Plain text (``--format text``) follows Weka's J48 layout, one line per
branch, ``|   `` per level, leaves as ``: Class (cases/errors)``::

    Outlook = Sunny
    |   Humidity = High: No (3.0)
    |   Humidity = Normal: Yes (2.0)
    Outlook = Overcast: Yes (4.0)
"""

from __future__ import annotations

from rich.tree import Tree as RichTree

from dtcli.model.tree import Node, Tree
from dtcli.render.counts import class_counts, j48_number, number

CRITERION_NAMES = {
    "gain": "gain",
    "gain-ratio": "gain ratio",
    "gini": "Gini gain",
    "entropy": "gain",
    "cart": "CART measure",
}


def _leaf_suffix(node: Node, classes) -> str:
    if node.value is not None:  # regression: the mean, and (cases) as J48 prints them
        return f"{node.value:.6g} ({j48_number(node.weight)})"
    errors = node.weight - float(node.counts[node.label])
    text = f"{classes[node.label]} ({j48_number(node.weight)}"
    if errors > 1e-6:  # as J48: shown whenever there are errors, even if they round to 0.0
        text += f"/{j48_number(errors)}"
    return text + ")"


def text_tree(tree: Tree) -> str:
    """The plain, J48-style rendering, ending with a newline."""
    classes = tree.classes
    if tree.root.is_leaf:
        return f": {_leaf_suffix(tree.root, classes)}\n"
    lines: list[str] = []
    stack = [("", iter(zip(tree.root.test.branch_labels(), tree.root.children)))]
    while stack:  # one line per branch, depth first, branches in order
        prefix, branches = stack[-1]
        label, child = next(branches, (None, None))
        if child is None:
            stack.pop()
        elif child.is_leaf:
            lines.append(f"{prefix}{label}: {_leaf_suffix(child, classes)}")
        else:
            lines.append(f"{prefix}{label}")
            stack.append((prefix + "|   ", iter(zip(child.test.branch_labels(), child.children))))
    return "\n".join(lines) + "\n"


def _describe(node: Node, classes, criterion: str) -> str:
    if node.value is not None:
        counts = f"[n {number(node.weight)}, mean {node.value:.4g}, MSE {node.impurity:.4g}]"
        criterion = "MSE decrease"
    else:
        counts = class_counts(node.counts, classes)
    if node.is_leaf:
        return f"{counts} → {node.value:.6g}" if node.value is not None else f"{counts} → {classes[node.label]}"
    score = ""
    if node.score is not None:
        score = (
            f" ({CRITERION_NAMES.get(criterion, criterion)} {node.score:.4g})"
            if node.value is not None
            else f" ({CRITERION_NAMES.get(criterion, criterion)} {node.score:.3f})"
        )
    return f"{counts} · split on {node.test.attribute.name}{score}"


def rich_tree(tree: Tree) -> RichTree:
    """A rich Tree: the root names the target, each branch its condition and counts."""
    classes = tree.classes
    criterion = tree.parameters.get("criterion", "gain")
    top = RichTree(f"{tree.schema.target.name} {_describe(tree.root, classes, criterion)}")
    stack = [(tree.root, top)]
    while stack:
        node, parent = stack.pop()
        if node.is_leaf:
            continue
        for label, child in zip(node.test.branch_labels(), node.children):
            stack.append((child, parent.add(f"{label} {_describe(child, classes, criterion)}")))
    return top


def summary(tree: Tree) -> str:
    """One line: leaves, nodes and depth."""
    root = tree.root
    return f"{root.n_leaves()} leaves, {root.n_nodes()} nodes, depth {root.depth()}"
