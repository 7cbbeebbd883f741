"""A tree as Graphviz DOT source (as Weka's ``-g`` and scikit-learn's ``export_graphviz`` give it).

One node per tree node (``n0`` is the root, numbered in preorder), labelled
with the tested attribute or the predicted class, the class counts and the
split's score; one edge per branch, labelled with its condition (``= Sunny``,
``<= 75``, ``> 75``, ``in {a, b}``). Leaves are filled with their class's
colour; a node where the picture was cut (``--max-depth``) is drawn dashed.
Labels are DOT double-quoted strings: a backslash and a double quote are
escaped, control characters were already written visibly by ``shown``
(``\\n`` as the two characters), so a label's only line breaks are dtree's own.
"""

from __future__ import annotations

from dtcli.render.colors import SPLIT_FILL, fills
from dtcli.render.picture import CUT, Picture


def quote(text: str) -> str:
    """``text`` as a DOT double-quoted string (backslashes and quotes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _label(lines) -> str:
    return '"' + "\\n".join(quote(line)[1:-1] for line in lines) + '"'


def dot(shown: Picture) -> str:
    """The DOT source of a Picture, its title (and the order of bare counts) as the graph's label."""
    fill = fills(shown)
    title = [shown.title] + ([f"class counts: {shown.order}"] if shown.order else [])
    out = [
        "digraph tree {",
        f'  graph [label={_label(title)}, labelloc=t, fontname="Helvetica", ordering=out];',
        '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for box in shown.boxes:
        extra = ""
        if box.kind != "split":
            style = "rounded,filled,dashed" if box.kind == CUT else "rounded,filled"
            extra = f', style="{style}", fillcolor="{fill.get(box.id, SPLIT_FILL)}"'
        out.append(f"  n{box.id} [label={_label(box.lines)}{extra}];")
        if box.parent is not None:
            out.append(f"  n{box.parent} -> n{box.id} [label={quote(box.branch)}];")
    out.append("}")
    return "\n".join(out) + "\n"
