"""A tree as a flat list of boxes for the pictures (DOT, SVG, mermaid), cut at a depth if asked.

Each :class:`Box` is one node in preorder (a parent before its children, so
its ``id`` is its position): the lines it shows (the tested attribute, or the
class a leaf predicts; the class counts; the split's score), the condition of
the branch that leads to it (``= Sunny``, ``<= 75``, ``> 75``, ``in {a, b}``),
and its kind: ``split``, ``leaf``, or ``cut`` for a split drawn as a leaf
because the picture stops at ``max_depth`` (it says how much is below it).
Names and values are written with ``printable.shown`` (control characters
escaped); each writer then quotes them for its own language. The walk uses an
explicit stack: trees reach 10,000 levels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dtcli.model.tree import Node, Tree
from dtcli.render.counts import MANY_CLASSES, class_counts, number, signs
from dtcli.render.printable import shown
from dtcli.render.tree import CRITERION_NAMES

SPLIT, LEAF, CUT = "split", "leaf", "cut"
READABLE_NODES = 300  # more boxes than this: the note suggests --max-depth
READABLE_LEVELS = 30
COMPACT_OVER = 30  # class counts longer than this are written as bare numbers


@dataclass
class Box:
    """One node of the picture (see the module docstring)."""

    id: int
    parent: int | None
    branch: str
    depth: int
    kind: str
    lines: tuple[str, ...]
    label: int  # the class predicted (classification), else 0
    value: float | None  # the mean (regression)
    children: list[int] = field(default_factory=list)


@dataclass
class Picture:
    """The boxes of a tree, with what the legend and the notes need."""

    boxes: list[Box]
    classes: tuple[str, ...]
    target: str
    regression: bool
    cut: bool  # some split was drawn as a leaf (max_depth)
    title: str
    order: str | None  # counts written as bare numbers: the classes they stand for, "[a, b, c]"


def branch_texts(node: Node) -> list[str]:
    """The condition of each branch of ``node`` without the attribute name: ``= Sunny``, ``<= 75``,
    ``> 75``, ``in {a, b}``, ``not in {a, b}``."""
    name = shown(node.test.attribute.name) + " "
    return [label[len(name) :] for label in node.test.branch_labels(shown)]


def _counts(node: Node, classes, compact: bool) -> str:
    if node.value is not None:
        return f"n {number(node.weight)}, MSE {node.impurity:.4g}"
    if compact:
        return "[" + ", ".join(number(n) for n in node.counts) + "]"
    return class_counts(node.counts, classes)


def compact_counts(tree: Tree) -> bool:
    """Counts as bare numbers (``[50, 50, 50]``, the classes named once in the legend) when the
    classes are not a +/- pair and naming them at every node would make boxes wide; with more than
    MANY_CLASSES classes, a node's non-zero counts by name instead (``class_counts``)."""
    classes = tree.classes
    if tree.schema.is_regression or signs(classes) is not None or len(classes) > MANY_CLASSES:
        return False
    return len(class_counts(tree.root.counts, classes)) > COMPACT_OVER


def _score(node: Node, criterion: str) -> tuple[str, ...]:
    if node.score is None:
        return ()
    if node.value is not None:
        return (f"MSE decrease {node.score:.4g}",)
    return (f"{CRITERION_NAMES.get(criterion, criterion)} {node.score:.3f}",)


def _lines(node: Node, kind: str, classes, style: tuple[str, bool]) -> tuple[str, ...]:
    criterion, compact = style
    what = f"{node.value:.4g}" if node.value is not None else shown(classes[node.label])
    counts = _counts(node, classes, compact)
    if kind == SPLIT:
        return (shown(node.test.attribute.name), counts, *_score(node, criterion))
    if kind == LEAF:
        return (what, counts)
    levels, nodes = node.depth(), node.n_nodes() - 1
    return (what, counts, f"cut: {levels} more level{'s' * (levels != 1)}, {nodes} nodes")


def picture(tree: Tree, max_depth: int | None = None, heading: str = "Decision tree") -> Picture:
    """The boxes of ``tree`` in preorder; below ``max_depth`` levels a split becomes a ``cut`` box.
    The title is ``heading`` with the target and the size of the whole tree."""
    classes = tree.classes
    compact = compact_counts(tree)
    style = (tree.parameters.get("criterion", "gain"), compact)
    boxes: list[Box] = []
    stack: list[tuple[Node, int | None, str, int]] = [(tree.root, None, "", 0)]
    cut = False
    while stack:
        node, parent, branch, depth = stack.pop()
        kind = LEAF if node.is_leaf else SPLIT
        if kind == SPLIT and max_depth is not None and depth >= max_depth:
            kind, cut = CUT, True
        box = Box(len(boxes), parent, branch, depth, kind, _lines(node, kind, classes, style),
                  node.label if node.value is None else 0, node.value)  # fmt: skip
        boxes.append(box)
        if parent is not None:
            boxes[parent].children.append(box.id)
        if kind == SPLIT:
            stack.extend(
                (child, box.id, text, depth + 1)
                for text, child in reversed(list(zip(branch_texts(node), node.children)))
            )
    target = shown(tree.schema.target.name)
    root = tree.root
    leaves, nodes = root.n_leaves(), root.n_nodes()
    shape = f"{leaves} {'leaf' if leaves == 1 else 'leaves'}, {nodes} {'node' if nodes == 1 else 'nodes'}"
    title = f"{heading} for {target}: {shape}, depth {root.depth()}"
    order = "[" + ", ".join(map(shown, classes)) + "]" if compact else None
    return Picture(boxes, classes, target, tree.schema.is_regression, cut, title, order)


def levels_within(tree: Tree, nodes: int) -> int:
    """The largest depth d (at least 1) such that the nodes at depth d or less number at most ``nodes``."""
    per_depth: dict[int, int] = {}
    stack = [(tree.root, 0)]
    while stack:
        node, depth = stack.pop()
        per_depth[depth] = per_depth.get(depth, 0) + 1
        stack.extend((child, depth + 1) for child in node.children)
    total, best = 0, 1
    for depth in sorted(per_depth):
        total += per_depth[depth]
        if total > nodes:
            break
        best = max(best, depth)
    return best


def note(tree: Tree, shown_picture: Picture, max_depth: int | None, command: str) -> str | None:
    """The one line for stderr when the picture is cut or too large to read (``command``: how to
    ask for a cut picture, e.g. ``dtree show MODEL``), else None."""
    total, depth = tree.root.n_nodes(), tree.root.depth()
    drawn = len(shown_picture.boxes)
    if shown_picture.cut:
        return (f"the picture shows the top {max_depth} of {depth} levels ({drawn} of {total} nodes; "
                "dashed boxes are cut); the model file has them all")  # fmt: skip
    if drawn > READABLE_NODES or depth > READABLE_LEVELS:
        return (f"the picture has {drawn} nodes and {depth} levels, too many to read easily; draw the top "
                f"levels with {command} --max-depth {levels_within(tree, READABLE_NODES)}")  # fmt: skip
    return None
