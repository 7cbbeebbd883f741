"""Fill colours of the pictures: one light colour per class, or a scale for a regression tree's means.

The class colours are light tints (black text stays readable on each), in
the order of the classes, repeating after twelve. A regression leaf is
filled on a scale from pale to mid blue, from the smallest mean to the largest.
"""

from __future__ import annotations

CLASS_FILLS = (
    "#a6cee3",
    "#fdbf6f",
    "#b2df8a",
    "#fb9a99",
    "#cab2d6",
    "#ffff99",
    "#8dd3c7",
    "#fccde5",
    "#d9d9d9",
    "#ccebc5",
    "#ffed6f",
    "#bebada",
)
SPLIT_FILL = "#ffffff"
LOW, HIGH = (0xF7, 0xFB, 0xFF), (0x6B, 0xAE, 0xD6)


def class_fill(label: int) -> str:
    return CLASS_FILLS[label % len(CLASS_FILLS)]


def scale_fill(value: float, low: float, high: float) -> str:
    """The colour of ``value`` on the scale from ``low`` (pale) to ``high`` (mid blue)."""
    share = 0.5 if not high > low else min(1.0, max(0.0, (value - low) / (high - low)))
    return "#" + "".join(f"{round(a + (b - a) * share):02x}" for a, b in zip(LOW, HIGH))


def fills(picture) -> dict[int, str]:
    """The fill of each leaf or cut box of a Picture (splits are white)."""
    ends = [b for b in picture.boxes if b.kind != "split"]
    if not picture.regression:
        return {b.id: class_fill(b.label) for b in ends}
    means = [b.value for b in ends]
    low, high = min(means), max(means)
    return {b.id: scale_fill(b.value, low, high) for b in ends}
