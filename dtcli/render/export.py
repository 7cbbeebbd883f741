"""A tree in each format of ``dtree show`` as one text: the pictures (DOT, SVG, mermaid) and the printouts.

``rich`` and ``text`` are the printouts ``dtree train`` makes (``render.tree``);
written to a file or a pipe, the rich form has no colour, the depth a pipe's width
allows, and no wrapped line (a long line is as long as its node needs).
``json`` is the model document itself. Importing this module is cheap (the
commands' option lists read ``FORMATS``); the writers load when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dtcli.model.tree import Tree
    from dtcli.render.picture import Picture

PICTURES = ("dot", "svg", "mermaid")
FORMATS = ("rich", "text", "json", *PICTURES)


def draw(tree: Tree, fmt: str, max_depth: int | None = None, heading: str = "Decision tree") -> tuple[str, Picture]:
    """The picture of ``tree`` in ``fmt`` (one of PICTURES) and the boxes it shows."""
    from dtcli.render.dot import dot
    from dtcli.render.mermaid import mermaid
    from dtcli.render.picture import picture
    from dtcli.render.svg import svg

    shown = picture(tree, max_depth, heading)
    return {"dot": dot, "svg": svg, "mermaid": mermaid}[fmt](shown), shown


def printout(tree: Tree, fmt: str, max_depth: int | None = None) -> str:
    """The ``text``, ``rich`` (no colour) or ``json`` form of ``tree`` as written to a file."""
    from dtcli.render.tree import TEXT_DEPTH, text_tree

    if fmt == "json":
        from dtcli.model.format.model import dumps_model

        return dumps_model(tree)
    if fmt == "text":
        return text_tree(tree, TEXT_DEPTH if max_depth is None else max_depth)
    from dtcli.render.console import pipe_width
    from dtcli.render.tree import rich_depth, rich_text

    width = pipe_width()  # how deep; a node's line is never wrapped
    return rich_text(tree, rich_depth(width) if max_depth is None else max_depth)
