"""The rich printout off a terminal (a pipe, a file) is written directly: the same text rich prints."""

from __future__ import annotations

import io

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.console import Console
from trees import chain, fit

from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.render.export import printout
from dtcli.render.tree import rich_depth, rich_text, rich_tree

# names and values a table may hold: spaces at either end, markup-like brackets, emoji codes, wide and
# combining characters, control characters (escaped by shown) and surrogate-free unicode at large
NAMES = st.sampled_from([" lead", "trail ", "[bold]b[/]", ":smile:", "漢字", "é", "a\u0301", "x\ty", "😀", "\\", "  "])
TEXTS = NAMES | st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=6)


def rich_printed(tree, max_depth) -> str:
    """What rich itself prints of ``rich_tree``, uncoloured, on a console wide enough for every line."""
    drawn = rich_tree(tree, max_depth)
    widest, stack = 0, [(drawn, 0)]
    while stack:
        node, depth = stack.pop()
        widest = max(widest, 4 * depth + cell_len(str(node.label)))
        stack.extend((child, depth + 1) for child in node.children)
    out = io.StringIO()
    console = Console(file=out, width=max(120, widest + 1), no_color=True, color_system=None, markup=False,
                      highlight=False, emoji=False, soft_wrap=False)  # fmt: skip
    console.print(drawn)
    return out.getvalue()


@st.composite
def odd_tables(draw):
    """A small table with odd names: 1-3 nominal attributes of 1-4 distinct values, a numeric one,
    2-3 classes, 4-40 rows."""
    n_rows = draw(st.integers(4, 40))
    names = draw(st.lists(TEXTS, min_size=5, max_size=5, unique=True))
    attributes, columns = [], []
    for j in range(draw(st.integers(1, 3))):
        values = tuple(draw(st.lists(TEXTS, min_size=1, max_size=4, unique=True)))
        attributes.append(Attribute(names[j], NOMINAL, values))
        columns.append(np.array(draw(st.lists(st.integers(-1, len(values) - 1), min_size=n_rows, max_size=n_rows))))
    attributes.append(Attribute(names[3], NUMERIC))
    numbers = st.floats(-1e6, 1e6, allow_nan=False) | st.just(float("nan"))
    columns.append(np.array(draw(st.lists(numbers, min_size=n_rows, max_size=n_rows))))
    classes = tuple(draw(st.lists(TEXTS, min_size=2, max_size=3, unique=True)))
    labels = np.array(
        [0, 1, *draw(st.lists(st.integers(0, len(classes) - 1), min_size=n_rows - 2, max_size=n_rows - 2))]
    )
    columns = [c.astype(np.int32) if a.kind == NOMINAL else c for a, c in zip(attributes, columns)]
    return Table(Schema(tuple(attributes), Attribute(names[4], NOMINAL, classes)), columns, labels.astype(np.int32))


@settings(max_examples=60, deadline=None)
@given(odd_tables(), st.sampled_from(["id3", "c45", "cart"]), st.sampled_from([None, 1, 2]))
def test_rich_text_is_what_rich_prints(table, algorithm, max_depth):
    options = {"id3": {"thresholds": "midpoint", "missing": "majority"}, "c45": {"min_leaf": 1}}.get(algorithm, {})
    tree, _ = fit(table, algorithm, engine="reference", prune="none", **options)
    assert rich_text(tree, max_depth) == rich_printed(tree, max_depth)


def test_deep_chains_and_their_summary_lines_match_rich():
    for depth, cut in [(1, None), (3, None), (12, 5), (40, rich_depth(120))]:
        assert rich_text(chain(depth), cut) == rich_printed(chain(depth), cut)
    assert rich_text(chain(6), 2).splitlines() == [
        "y [a 1, b 1] · split on x",
        "├── x <= 0.5 [a 1, b 0] → a",
        "└── x > 0.5 [a 0, b 1] · split on x",
        "    ├── x <= 1.5 [a 1, b 0] → a",
        "    └── x > 1.5 [a 0, b 1] · split on x",
        "        └── ... 4 more levels, 8 nodes",
    ]


def test_printout_of_a_20000_level_tree_stops_at_the_pipe_width(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    lines = printout(chain(20_000), "rich").splitlines()
    assert len(lines) == 1 + 2 * rich_depth(40) + 1  # the root, two branches a level, the summary
    assert lines[-1].endswith("└── ... 19995 more levels, 39990 nodes")
