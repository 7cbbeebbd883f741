"""Printing deep trees (levels past a limit summarised) and values with control characters (escaped)."""

from __future__ import annotations

import io

from rich.console import Console
from trees import chain

from dtcli.render.printable import shown
from dtcli.render.tree import ShownTree, rich_tree, text_tree


def test_control_characters_are_escaped_and_nothing_else():
    assert shown("a\nb") == "a\\nb"
    assert shown("tab\there\r") == "tab\\there\\r"
    assert shown("\x1b[31mred") == "\\x1b[31mred"
    assert shown("line\u2028sep\x85") == "line\\u2028sep\\x85"
    assert shown("back\\slash\n") == "back\\\\slash\\n"  # escaped, so the backslash is doubled
    assert shown("back\\slash") == "back\\slash"  # nothing to escape: as it is
    assert shown("é, 😀, \"quotes\" and 'these'") == "é, 😀, \"quotes\" and 'these'"


def test_text_tree_below_a_depth_says_what_is_not_shown():
    assert text_tree(chain(5), max_depth=2).splitlines() == [
        "x <= 0.5: a (1.0)",
        "x > 0.5",
        "|   x <= 1.5: a (1.0)",
        "|   x > 1.5",
        "|   |   ... 3 more levels, 6 nodes, not shown (the model file has them)",
    ]
    assert text_tree(chain(2), max_depth=2) == text_tree(chain(2))  # deep enough: all of it


def test_a_20000_level_tree_prints_in_proportion_to_what_is_shown():
    tree = chain(20_000)
    text = text_tree(tree, max_depth=1000)
    assert len(text.splitlines()) == 2001 and len(text) < 5_000_000
    shown_tree = rich_tree(tree, max_depth=3)
    assert str(shown_tree.children[1].children[1].children[1].children[0].label) == "... 19997 more levels, 39994 nodes"


def test_rich_tree_goes_as_deep_as_the_width_leaves_room_for():
    out = io.StringIO()
    Console(file=out, width=40, color_system=None, markup=False, highlight=False).print(ShownTree(chain(10)))
    lines = out.getvalue().splitlines()
    # (40 - 16) // 4 - 1 = 5 levels, then the split at depth 5 summarised: 5 more levels, 10 nodes
    assert lines[-4].startswith(" " * 16 + "└── x > 4.5 [a 0, b 1]")  # depth 5, wrapped in the room left
    assert " ".join(line.strip() for line in lines[-2:]) == "└── ... 5 more levels, 10 nodes"
    assert all(len(line) <= 40 for line in lines)


def test_training_prints_odd_values_escaped_and_writes_them_as_they_are(run, tmp_path):
    data = tmp_path / "odd.csv"
    data.write_text('a,y\n"x\ny","p\tp"\n"x\ny","p\tp"\nz\\w,q\nz\\w,q\n')
    done = run("train", str(data), "-m", "1", "-f", "text", "-o", str(tmp_path / "m.json"))
    assert done.stdout == "a = x\\ny: p\\tp (2.0)\na = z\\w: q (2.0)\n"
    rich = run("train", str(data), "-m", "1").stdout.splitlines()
    assert rich == [
        "y [p\\tp 2, q 2] · split on a (gain 1.000)",
        "├── a = x\\ny [p\\tp 2, q 0] → p\\tp",
        "└── a = z\\w [p\\tp 0, q 2] → q",
    ]
    rules = run("rules", str(tmp_path / "m.json")).stdout.splitlines()
    assert rules[0] == "R1: IF a = x\\ny THEN y = p\\tp"
    predicted = run("predict", str(tmp_path / "m.json"), str(data))
    assert predicted.stdout.splitlines()[1:3] == ['"x', 'y",p\tp,p\tp']  # CSV: the real values
    assert "  p\\tp    2    0" in predicted.stderr
