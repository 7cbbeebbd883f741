"""The layered layout of the pictures, on random tree shapes: what must hold, checked directly."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.render.layout import place, text_width

GAP = 16.0


@st.composite
def shapes(draw):
    """(children lists in preorder numbering, slot widths) of a random tree."""
    sizes = draw(st.lists(st.integers(0, 4), min_size=1, max_size=40))  # children per node, breadth first
    children: list[list[int]] = [[]]
    queue, k = [0], 0
    while queue and k < len(sizes):
        node = queue.pop(0)
        for _ in range(sizes[k] if sizes[k] != 1 else 2):
            children.append([])
            children[node].append(len(children) - 1)
            queue.append(len(children) - 1)
        k += 1
    order, stack = [], [0]  # renumber in preorder, as the pictures number their boxes
    while stack:
        node = stack.pop()
        order.append(node)
        stack.extend(reversed(children[node]))
    new = {old: i for i, old in enumerate(order)}
    kids = [[new[c] for c in children[old]] for old in order]
    return kids, [draw(st.floats(20, 250)) for _ in kids]


def depths(children):
    depth = [0] * len(children)
    for i, kids in enumerate(children):
        for c in kids:
            depth[c] = depth[i] + 1
    return depth


@settings(max_examples=200, deadline=None)
@given(shapes())
def test_boxes_never_overlap_leaves_keep_their_order_parents_are_centred(shape):
    children, slots = shape
    centre, width = place(children, slots, GAP)
    depth = depths(children)
    for a in range(len(children)):
        for b in range(a + 1, len(children)):
            if depth[a] == depth[b]:  # same row: the slots (box or branch label) are apart
                assert abs(centre[a] - centre[b]) >= (slots[a] + slots[b]) / 2 - 1e-6
    leaves = [centre[i] for i, kids in enumerate(children) if not kids]
    assert leaves == sorted(leaves)
    for i, kids in enumerate(children):
        if not kids:
            continue
        middle = (centre[kids[0]] + centre[kids[-1]]) / 2
        room = min(middle - (centre[kids[0]] - slots[kids[0]] / 2), centre[kids[-1]] + slots[kids[-1]] / 2 - middle)
        if slots[i] / 2 <= room:  # the box fits over its children: exactly midway between the first and last
            assert abs(centre[i] - middle) < 1e-6
        assert slots[i] / 2 - 1e-6 <= centre[i] <= width - slots[i] / 2 + 1e-6


def test_a_chain_of_10000_levels_is_placed():
    children = [[i + 1, i + 2] if i % 2 == 0 and i + 2 < 20001 else [] for i in range(20001)]
    centre, width = place(children, [50.0] * 20001, GAP)
    assert len(centre) == 20001 and width > 0


def test_text_width_estimates_grow_with_the_text():
    assert text_width("", 12) == 0
    assert text_width("iii", 12) < text_width("mmm", 12) < text_width("MMM", 12, bold=True)
    assert text_width("日本", 12) == 2 * 12
