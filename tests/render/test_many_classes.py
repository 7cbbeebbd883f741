"""More than six classes: counts list the classes present; of more than six such, the largest and the rest."""

from __future__ import annotations

import re

import numpy as np

from dtcli.render.counts import class_counts


def test_few_classes_keep_every_count():
    assert class_counts([5, 0, 9], ["a", "b", "c"]) == "[a 5, b 0, c 9]"
    assert class_counts([9, 5], ["yes", "no"]) == "[9+, 5-]"


def test_many_classes_leave_out_zeros():
    classes = [f"c{i}" for i in range(30)]
    counts = [0.0] * 30
    counts[3], counts[7] = 12, 1
    assert class_counts(counts, classes) == "[c3 12, c7 1]"


def test_many_present_classes_show_the_six_largest_and_the_rest():
    classes = [f"c{i}" for i in range(30)]
    counts = list(range(30))  # c0 holds none
    assert class_counts(counts, classes) == "[c29 29, c28 28, c27 27, c26 26, c25 25, c24 24, 23 other classes 276]"


def test_a_thirty_class_tree_prints_compact_counts_as_the_data_has_them(run, tmp_path):
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 30, 600).round(3)
    (tmp_path / "k.csv").write_text("x,cls\n" + "\n".join(f"{v},k{int(v):02d}" for v in x) + "\n")
    result = run("train", tmp_path / "k.csv", "-a", "c45", "-f", "rich")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    data = np.bincount(x.astype(int), minlength=30)
    root = re.search(r"\[([^\]]*)\]", lines[0]).group(1).split(", ")
    named = {int(item.split()[0][1:]): int(item.split()[1]) for item in root[:6]}
    assert all(data[k] == n for k, n in named.items())
    assert sorted(named.values(), reverse=True) == sorted(data, reverse=True)[:6]
    assert root[6] == f"24 other classes {600 - sum(named.values())}"
    for line in lines:
        counts = re.search(r"\[([^\]]*)\]", line).group(1).split(", ")
        assert len(counts) <= 7 and not any(c.endswith(" 0") for c in counts)
        if "→" in line:  # a pure leaf: its one class
            assert len(counts) == 1


def test_pictures_use_the_compact_counts_too(run, tmp_path):
    rng = np.random.default_rng(5)
    x = rng.uniform(0, 30, 300).round(3)
    (tmp_path / "k.csv").write_text("x,cls\n" + "\n".join(f"{v},k{int(v):02d}" for v in x) + "\n")
    assert run("train", tmp_path / "k.csv", "-a", "c45", "-q", "-o", tmp_path / "k.json").exit_code == 0
    dot = run("show", tmp_path / "k.json", "-f", "dot").stdout
    root = re.search(r'n0 \[label="x\\n\[([^\]]*)\]', dot).group(1).split(", ")
    assert len(root) == 7 and root[6].startswith("24 other classes ")
    assert "class counts: [" not in dot  # no legend of bare numbers: every count is named
    leaves = re.findall(r'label="(k\d\d)\\n\[([^\]]*)\]"', dot)
    assert leaves and all(counts.split()[0] == label for label, counts in leaves)
