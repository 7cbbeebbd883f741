"""A layered layout of a tree: leaves left to right in order, each parent centred over its children.

Every node gets a slot as wide as its box or the label of the branch into
it, whichever is wider; a subtree's span is the wider of its own slot and
its children's spans side by side (``gap`` apart). Spans never overlap, so
neither do boxes nor branch labels; a parent sits midway between its first
and last child, kept inside its span (slot and all). Two passes over the preorder list
(children after their parent), so no recursion and linear time at any depth.
The text widths are estimates for a sans-serif font (no font metrics are
available without a renderer), on the generous side.
"""

from __future__ import annotations

import unicodedata

NARROW = set(" .,:;'|!ijlIft()[]{}1/\\")
WIDE = set("mwMW@%")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The estimated width in pixels of ``text`` at font ``size`` (DejaVu Sans-like metrics)."""
    em = 0.0
    for char in text:
        if char in NARROW:
            em += 0.34
        elif char in WIDE:
            em += 0.92
        elif unicodedata.east_asian_width(char) in ("W", "F"):
            em += 1.0
        elif unicodedata.combining(char):
            continue
        elif char.isupper():
            em += 0.72
        else:
            em += 0.62
    return em * size * (1.08 if bold else 1.0)


def place(children: list[list[int]], slots: list[float], gap: float) -> tuple[list[float], float]:
    """The x centre of each node (nodes numbered in preorder, ``children`` of each in order; ``slots``
    the width each needs for its box and the label over it) and the total width."""
    n = len(slots)
    span = list(slots)
    for i in range(n - 1, -1, -1):  # children come after their parent: reversed preorder is bottom up
        if children[i]:
            span[i] = max(span[i], sum(span[c] for c in children[i]) + gap * (len(children[i]) - 1))
    left = [0.0] * n
    for i in range(n):
        kids = children[i]
        if kids:
            start = left[i] + (span[i] - sum(span[c] for c in kids) - gap * (len(kids) - 1)) / 2
            for c in kids:
                left[c] = start
                start += span[c] + gap
    centre = [0.0] * n
    for i in range(n - 1, -1, -1):
        kids = children[i]
        if not kids:
            centre[i] = left[i] + span[i] / 2
            continue
        half = slots[i] / 2
        middle = (centre[kids[0]] + centre[kids[-1]]) / 2
        centre[i] = min(max(middle, left[i] + half), left[i] + span[i] - half)
    return centre, (span[0] if n else 0.0)
