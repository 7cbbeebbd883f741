"""A tree as a self-contained SVG picture, drawn by dtree itself (no Graphviz needed).

The picture has a title, a legend (the colour of each class, or of the
regression scale; the classes bare counts stand for), and the tree laid out
by ``render.layout``: one box per node with the tested attribute or the
predicted class, the class counts and the split's score; leaves filled with
their class's colour; elbow edges with the branch condition over each one;
a box where the picture was cut (``--max-depth``) drawn dashed. Text is
XML-escaped (and characters XML cannot hold written as ``\\uXXXX``), every
number is rounded to 0.1 px, so the same tree gives the same bytes.
"""

from __future__ import annotations

import re

from dtcli.render.colors import HIGH, LOW, SPLIT_FILL, class_fill, fills
from dtcli.render.layout import place, text_width
from dtcli.render.picture import CUT, SPLIT, Picture

FONT, LINE, PAD_X, PAD_Y = 12, 15, 9, 6
GAP, LEVEL_GAP, MARGIN = 16, 58, 20
TITLE_FONT, LEGEND_ROW, LABEL_FONT = 16, 20, 11
BOLD = ' font-weight="bold"'
STROKE, EDGE, TEXT = "#555555", "#888888", "#222222"
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def escape(text: str) -> str:
    """``text`` for XML content or a double-quoted attribute."""
    text = _NOT_XML.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def num(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _box_width(lines) -> float:
    widths = [text_width(line, FONT, bold=(k == 0)) for k, line in enumerate(lines)]
    return max(widths) + 2 * PAD_X


def _legend(shown: Picture, fill: dict) -> list[tuple[str, str]]:
    """(swatch colour or "", text) entries of the legend."""
    if shown.regression:
        ends = [b.value for b in shown.boxes if b.id in fill]
        low, high = min(ends), max(ends)
        rgb = ["#" + "".join(f"{c:02x}" for c in colour) for colour in (LOW, HIGH)]
        return [("", "Leaf colour: the mean,"), (rgb[0], f"{low:.4g} (lowest)"), (rgb[1], f"{high:.4g} (highest)")]
    entries = [("", "Leaf colour: the class")]
    entries += [(class_fill(k), name) for k, name in enumerate(shown.classes)]
    return entries


def _legend_rows(entries, room: float) -> list[list[tuple[str, str, float]]]:
    """The legend entries as rows that fit ``room`` pixels: (colour, text, x)."""
    rows: list[list[tuple[str, str, float]]] = [[]]
    x = 0.0
    for colour, text in entries:
        need = (18 if colour else 0) + text_width(text, FONT) + 16
        if x > 0 and x + need > room:
            rows.append([])
            x = 0.0
        rows[-1].append((colour, text, x))
        x += need
    return rows


def _boxes_svg(shown: Picture, fill, xs, tops, widths, height) -> list[str]:
    out = []
    for box in shown.boxes:
        x, top, w = xs[box.id], tops[box.id], widths[box.id]
        colour = SPLIT_FILL if box.kind == SPLIT else fill[box.id]
        dash = ' stroke-dasharray="5,3"' if box.kind == CUT else ""
        out.append(f'<rect x="{num(x - w / 2)}" y="{num(top)}" width="{num(w)}" height="{num(height)}" rx="6" '
                   f'fill="{colour}" stroke="{STROKE}"{dash}/>')  # fmt: skip
        first = top + (height - len(box.lines) * LINE) / 2 + LINE - 3.5
        spans = "".join(
            f'<tspan x="{num(x)}" y="{num(first + k * LINE)}"{BOLD if k == 0 else ""}>{escape(line)}</tspan>'
            for k, line in enumerate(box.lines)
        )
        out.append(f'<text text-anchor="middle">{spans}</text>')
    return out


def _edges_svg(shown: Picture, xs, tops, height) -> list[str]:
    """Elbow edges (down, across, down) and each branch's condition on a white ground over its last leg."""
    paths, grounds, labels = [], [], []
    for box in shown.boxes:
        if box.parent is None:
            continue
        bottom = tops[box.parent] + height
        bus = bottom + 14
        x, top = xs[box.id], tops[box.id]
        middle = (bus + top) / 2
        paths.append(f'<path d="M{num(xs[box.parent])} {num(bottom)}V{num(bus)}H{num(x)}V{num(top)}"/>')
        w = text_width(box.branch, LABEL_FONT) + 4
        grounds.append(f'<rect x="{num(x - w / 2)}" y="{num(middle - 8)}" width="{num(w)}" height="15"/>')
        labels.append(f'<text x="{num(x)}" y="{num(middle + 4)}">{escape(box.branch)}</text>')
    return [
        f'<g fill="none" stroke="{EDGE}" stroke-width="1.2">',
        *paths,
        "</g>",
        '<g fill="#ffffff">',
        *grounds,
        "</g>",
        f'<g text-anchor="middle" font-size="{LABEL_FONT}">',
        *labels,
        "</g>",
    ]


def svg(shown: Picture) -> str:
    """The SVG document of a Picture."""
    fill = fills(shown)
    widths = [_box_width(box.lines) for box in shown.boxes]
    slots = [max(w, text_width(box.branch, LABEL_FONT) + 8) for w, box in zip(widths, shown.boxes)]
    centres, tree_width = place([box.children for box in shown.boxes], slots, GAP)
    entries = _legend(shown, fill)
    if shown.order:
        entries.append(("", f"Counts: {shown.order}"))
    title_width = text_width(shown.title, TITLE_FONT, bold=True)
    width = max(tree_width, title_width, 600.0) + 2 * MARGIN
    rows = _legend_rows(entries, width - 2 * MARGIN)
    tree_top = MARGIN + TITLE_FONT + 14 + len(rows) * LEGEND_ROW + 10
    height = max(len(box.lines) for box in shown.boxes) * LINE + 2 * PAD_Y
    depth = max(box.depth for box in shown.boxes)
    total_height = tree_top + (depth + 1) * height + depth * LEVEL_GAP + MARGIN
    shift = MARGIN + (width - 2 * MARGIN - tree_width) / 2
    xs = [c + shift for c in centres]
    tops = [tree_top + box.depth * (height + LEVEL_GAP) for box in shown.boxes]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{num(width)}" height="{num(total_height)}" '
        f'viewBox="0 0 {num(width)} {num(total_height)}" font-family="DejaVu Sans, Verdana, Arial, sans-serif" '
        f'font-size="{FONT}" fill="{TEXT}">',
        f"<title>{escape(shown.title)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
        f'<text x="{MARGIN}" y="{MARGIN + TITLE_FONT}" font-size="{TITLE_FONT}" font-weight="bold">'
        f"{escape(shown.title)}</text>",
    ]
    for r, row in enumerate(rows):
        y = MARGIN + TITLE_FONT + 14 + r * LEGEND_ROW
        for colour, text, x in row:
            if colour:
                out.append(f'<rect x="{num(MARGIN + x)}" y="{y}" width="13" height="13" fill="{colour}" '
                           f'stroke="{STROKE}"/>')  # fmt: skip
                x += 18
            out.append(f'<text x="{num(MARGIN + x)}" y="{y + 11}">{escape(text)}</text>')
    out += _edges_svg(shown, xs, tops, height)
    out += _boxes_svg(shown, fill, xs, tops, widths, height)
    out.append("</svg>")
    return "\n".join(out) + "\n"
