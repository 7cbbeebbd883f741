"""Trees for people: a rich tree with counts and scores, or plain J48-style text.

Plain text (``--format text``) follows Weka's J48 layout, one line per
branch, ``|   `` per level, leaves as ``: Class (cases/errors)``::

    Outlook = Sunny
    |   Humidity = High: No (3.0)
    |   Humidity = Normal: Yes (2.0)
    Outlook = Overcast: Yes (4.0)

Names and values are written with ``printable.shown`` (control characters
escaped). Deep trees: both forms are made with explicit stacks; the command
line shows the text form down to ``TEXT_DEPTH`` levels and the rich form as
deep as the console leaves room for a label (``RICH_ROOM`` cells), and says
how many levels and nodes below are not shown (the model file has them all).
Off a terminal (a pipe, a file) the rich form is as deep as ``COLUMNS`` (else
120) cells allow, but a line is never wrapped: it is as long as its node needs
(``render.export.printout``), so every node stays on one line for grep and diff.
"""

from __future__ import annotations

from dtcli.model.tree import Node, Tree
from dtcli.render.counts import class_counts, j48_number, number
from dtcli.render.printable import shown

TEXT_DEPTH = 1000  # levels of the text form printed by the commands
RICH_ROOM = 16  # the rich form goes as deep as leaves this many cells for a label

CRITERION_NAMES = {
    "gain": "gain",
    "gain-ratio": "gain ratio",
    "gini": "Gini gain",
    "entropy": "gain",
    "cart": "CART measure",
}
COST_NAMES = {"ratio": "Gain/Cost", "tan-schlimmer": "Gain^2/Cost", "nunez": "(2^Gain-1)/(Cost+1)^w"}


def score_name(parameters: dict) -> str:
    """What a split's score is: the cost measure with --costs (Mitchell 3.7.5), else the criterion."""
    costs = parameters.get("costs")
    if costs and parameters.get("algorithm") != "cart":
        return COST_NAMES.get(costs.get("measure"), "cost measure")
    criterion = parameters.get("criterion", "gain")
    return CRITERION_NAMES.get(criterion, criterion)


def _leaf_suffix(node: Node, classes) -> str:
    if node.value is not None:  # regression: the mean, and (cases) as J48 prints them
        return f"{node.value:.6g} ({j48_number(node.weight)})"
    errors = node.weight - float(node.counts[node.label])
    text = f"{shown(classes[node.label])} ({j48_number(node.weight)}"
    if errors > 1e-6:  # as J48: shown whenever there are errors, even if they round to 0.0
        text += f"/{j48_number(errors)}"
    return text + ")"


def text_tree(tree: Tree, max_depth: int | None = None) -> str:
    """The plain, J48-style rendering, ending with a newline; with ``max_depth``, a split at that
    depth is followed by one line saying what is below it instead of its branches."""
    classes = tree.classes
    if tree.root.is_leaf:
        return f": {_leaf_suffix(tree.root, classes)}\n"
    lines: list[str] = []
    stack = [("", iter(zip(tree.root.test.branch_labels(shown), tree.root.children)))]
    while stack:  # one line per branch, depth first, branches in order
        prefix, branches = stack[-1]
        label, child = next(branches, (None, None))
        if child is None:
            stack.pop()
        elif child.is_leaf:
            lines.append(f"{prefix}{label}: {_leaf_suffix(child, classes)}")
        else:
            lines.append(f"{prefix}{label}")
            if max_depth is not None and len(stack) >= max_depth:
                lines.append(f"{prefix}|   {_not_shown(child)}")
            else:
                stack.append((prefix + "|   ", iter(zip(child.test.branch_labels(shown), child.children))))
    return "\n".join(lines) + "\n"


def _not_shown(node: Node, short: bool = False) -> str:
    """What a summary line says of the subtree below ``node``: its levels and nodes."""
    levels, nodes = node.depth(), node.n_nodes() - 1
    text = f"... {levels} more level{'s' * (levels != 1)}, {nodes} nodes"
    return text if short else f"{text}, not shown (the model file has them)"


def _describe(node: Node, classes, name: str) -> str:
    if node.value is not None:
        counts = f"[n {number(node.weight)}, mean {node.value:.4g}, MSE {node.impurity:.4g}]"
        name = "MSE decrease"
    else:
        counts = class_counts(node.counts, classes)
    if node.is_leaf:
        return f"{counts} → {node.value:.6g}" if node.value is not None else f"{counts} → {shown(classes[node.label])}"
    score = ""
    if node.score is not None:
        score = f" ({name} {node.score:.4g})" if node.value is not None else f" ({name} {node.score:.3f})"
    return f"{counts} · split on {shown(node.test.attribute.name)}{score}"


def _branches(node: Node, depth: int, max_depth: int | None, classes, name: str) -> list:
    """The lines under ``node`` in the rich form, each (label, the child it opens or None): none for
    a leaf, one saying what is below a split at ``max_depth``, else one a branch in order."""
    if node.is_leaf:
        return []
    if max_depth is not None and depth >= max_depth:
        return [(_not_shown(node, short=True), None)]
    labels = node.test.branch_labels(shown)
    return [(f"{label} {_describe(child, classes, name)}", child) for label, child in zip(labels, node.children)]


def _root_label(tree: Tree, name: str) -> str:
    return f"{shown(tree.schema.target.name)} {_describe(tree.root, tree.classes, name)}"


def rich_tree(tree: Tree, max_depth: int | None = None):
    """A rich Tree: the root names the target, each branch its condition and counts; with
    ``max_depth``, a split at that depth gets one child saying what is below it."""
    from rich.tree import Tree as RichTree  # (here: a run that prints no rich tree never imports rich)

    classes = tree.classes
    name = score_name(tree.parameters)
    top = RichTree(_root_label(tree, name))
    stack = [(tree.root, top, 0)]
    while stack:
        node, parent, depth = stack.pop()
        for label, child in _branches(node, depth, max_depth, classes, name):
            drawn = parent.add(label)
            if child is not None:
                stack.append((child, drawn, depth + 1))
    return top


def rich_text(tree: Tree, max_depth: int | None = None) -> str:
    """The rich form as rich prints ``rich_tree`` without colour on a console wide enough that no
    line wraps, written directly (rich's layout takes seconds on a 10,000-node tree): the root's
    line, then each node's line after its guides, 4 cells a level (``├── `` or ``└── `` for the
    node, ``│   `` or 4 spaces for each ancestor with or without siblings below it)."""
    classes = tree.classes
    name = score_name(tree.parameters)
    lines = [_root_label(tree, name)]
    stack = [("", _branches(tree.root, 0, max_depth, classes, name), 0)]
    while stack:  # depth first, branches in order; a frame: its guides, its lines, the next one
        guides, rows, at = stack[-1]
        if at == len(rows):
            stack.pop()
            continue
        stack[-1] = (guides, rows, at + 1)
        label, child = rows[at]
        last = at == len(rows) - 1
        lines.append(f"{guides}{'└── ' if last else '├── '}{label}")
        if child is not None:
            below = _branches(child, len(stack), max_depth, classes, name)
            if below:
                stack.append((guides + ("    " if last else "│   "), below, 0))
    return "\n".join(lines) + "\n"


def rich_depth(width: int) -> int:
    """How many levels of the rich form a console ``width`` cells wide shows (each indents by 4,
    ``RICH_ROOM`` cells left for a label)."""
    return max(1, (width - RICH_ROOM) // 4 - 1)


class ShownTree:
    """The rich tree of ``tree`` as deep as the console it is printed on leaves ``RICH_ROOM``
    cells for a label, the summary of what is deeper included (each level indents by 4)."""

    def __init__(self, tree: Tree):
        self.tree = tree

    def __rich_console__(self, console, options):
        yield rich_tree(self.tree, rich_depth(options.max_width))


def summary(tree: Tree) -> str:
    """One line: leaves, nodes and depth."""
    leaves, nodes, depth = tree.root.shape()
    return f"{leaves} {'leaf' if leaves == 1 else 'leaves'}, {nodes} {'node' if nodes == 1 else 'nodes'}, depth {depth}"
