"""A tree as a mermaid ``flowchart TD``, for Markdown notes (GitHub, GitLab, Obsidian render it).

Nodes are ``n0`` (the root), ``n1``, ... in preorder; each label is a quoted
string with the tested attribute or the predicted class and the class counts
on separate lines (``<br/>``), each edge is labelled with its branch's
condition. Characters mermaid could read as syntax (``"``, ``#``, ``&``,
``<``, ``>``, ``|``, backquote, ``;``, backslash) are written as
its entity codes (``#34;``), so a name or value can only ever be text. Leaves
get their class's colour (``classDef``); a box where the picture was cut
(``--max-depth``) has a dashed border.
"""

from __future__ import annotations

import json

from dtcli.render.colors import fills
from dtcli.render.picture import CUT, Picture

_SYNTAX = set('"#&<>|`;\\')


def text(value: str) -> str:
    """``value`` with every character mermaid could read as syntax written as an entity code."""
    return "".join(f"#{ord(c)};" if c in _SYNTAX else c for c in value)


def mermaid(shown: Picture) -> str:
    """The flowchart of a Picture, with its title (and the order of bare counts) as front matter."""
    fill = fills(shown)
    title = shown.title + (f"; class counts: {shown.order}" if shown.order else "")
    lines = ["---", f"title: {json.dumps(title, ensure_ascii=False)}", "---", "flowchart TD"]
    for box in shown.boxes:
        lines.append(f'  n{box.id}["{"<br/>".join(text(line) for line in box.lines)}"]')
        if box.parent is not None:
            lines.append(f'  n{box.parent} -->|"{text(box.branch)}"| n{box.id}')
    styles: dict[str, list[int]] = {}
    for box in shown.boxes:
        if box.id in fill:
            styles.setdefault(fill[box.id] + (" cut" if box.kind == CUT else ""), []).append(box.id)
    for k, (style, ids) in enumerate(sorted(styles.items())):
        colour, _, dashed = style.partition(" ")
        dash = ",stroke-dasharray:5 5" if dashed else ""
        lines.append(f"  classDef c{k} fill:{colour},stroke:#555555{dash}")
        lines.append(f"  class {','.join(f'n{i}' for i in ids)} c{k}")
    return "\n".join(lines) + "\n"
