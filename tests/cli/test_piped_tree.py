"""The rich tree piped (standard output not a terminal): every node on one line however long its
names are, as deep as COLUMNS allows, the same for train, prune, show and show -o."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import numpy as np
import pytest

LONG = "a_very_long_attribute_name_that_goes_on_" * 4  # 160 characters: longer than the 120 columns of a pipe
NODE_LINE = re.compile(r"^(?:[│├└─ ]{4})*\S.*(?:→ \w+|split on \w+(?: \(\w[\w ]* [-\d.e]+\))?|not shown.*|nodes)$")


def dtree(cwd, *args) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="120", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    done = subprocess.run([sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """A table whose attribute names and values are long, and its C4.5 tree (several levels)."""
    d = tmp_path_factory.mktemp("piped")
    rng = np.random.default_rng(11)
    names = [f"{LONG}{i}" for i in range(3)]
    rows = []
    for _ in range(400):
        a, b = rng.integers(0, 3, 2)
        x = round(float(rng.normal()), 2)
        label = "yes" if (a == 1) ^ (x > 0.3) ^ (b == 2 and x < -0.5) else "no"
        rows.append(f"value_{a}_{'z' * 60},category_{b}_{'q' * 70},{x},{label}")
    (d / "wide.csv").write_text(",".join([*names, "class"]) + "\n" + "\n".join(rows) + "\n")
    dtree(d, "train", "wide.csv", "-a", "c45", "-qo", "wide.json")
    return d


def test_long_names_never_wrap_in_train_prune_show(wide):
    trained = dtree(wide, "train", "wide.csv", "-a", "c45").stdout
    lines = trained.splitlines()
    from dtcli.model.format.model import loads_model

    tree = loads_model((wide / "wide.json").read_text(), "wide.json")
    assert len(lines) == tree.root.n_nodes() > 7  # one line a node: none wrapped onto a second
    assert all(NODE_LINE.match(line) for line in lines[1:]), trained
    assert max(len(line) for line in lines) > 120  # the names really are longer than the width
    assert dtree(wide, "show", "wide.json").stdout == trained
    assert dtree(wide, "prune", "wide.json", "--ccp-alpha", "0").stdout == trained
    dtree(wide, "show", "wide.json", "-o", "tree.txt")
    assert (wide / "tree.txt").read_text(encoding="utf-8") == trained


def test_deep_tree_piped_is_cut_at_the_width_with_unwrapped_lines(tmp_path):
    from dtcli.model.format.model import dumps_model
    from dtcli.model.table import NUMERIC, Attribute, Schema
    from dtcli.model.tree import Node, NumericTest, Tree

    x = Attribute(LONG, NUMERIC)
    root = node = Node(np.array([1.0, 1.0]), 0)
    for d in range(60):  # a chain: LONG <= d + 0.5 is a leaf, LONG > d + 0.5 goes on
        node.test = NumericTest(x, d + 0.5)
        node.children = [Node(np.array([1.0, 0.0]), 0), Node(np.array([0.0, 1.0]), 1)]
        node = node.children[1]
    tree = Tree(Schema((x,), Attribute("y", "nominal", ("a", "b"))), root, "cart", {"criterion": "gini"})
    (tmp_path / "deep.json").write_text(dumps_model(tree))
    lines = dtree(tmp_path, "show", "deep.json").stdout.splitlines()
    shown = (120 - 16) // 4 - 1  # levels a 120-column pipe shows (render.tree.rich_depth)
    assert len(lines) == 1 + 2 * shown + 1  # the root, two branches a level, the line saying what is below
    assert lines[-1].endswith(f"... {60 - shown} more levels, {2 * (60 - shown)} nodes")
    assert all(NODE_LINE.match(line) for line in lines[1:]), lines
    assert lines[-2].startswith("    " * (shown - 1) + "└── ") and LONG in lines[-2]  # 4 cells a level, whole
