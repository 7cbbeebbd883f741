"""``dtree train --trace``: Mitchell's construction narrated line by line, --id, the JSON document, engines."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from helpers import SAMPLES

WEATHER = SAMPLES / "weather.csv"


def H(*counts):
    total = sum(counts)
    return -sum(c / total * math.log2(c / total) for c in counts if c)


def gini(*counts):
    total = sum(counts)
    return 1 - sum((c / total) ** 2 for c in counts)


def blocks(stderr: str) -> dict:
    """The narration's lines by node number (``Node 2: ...`` starts node 2)."""
    nodes, current = {}, None
    for line in stderr.splitlines():
        if line.startswith("Node "):
            current = int(line.split(":")[0].split()[1])
            nodes[current] = [line]
        elif current is not None and line.startswith("  "):
            nodes[current].append(line)
        else:
            current = None
    return nodes


def test_mitchell_construction_line_by_line(run):
    result = run("train", WEATHER, "--target", "PlayTennis", "--trace", "--id", "Day", "-f", "text")
    assert result.exit_code == 0, result.stderr
    assert "Day" not in result.stdout  # the --id column is no attribute
    nodes = blocks(result.stderr)
    days = ", ".join(f"D{i}" for i in range(1, 15))
    s = H(9, 5)
    assert nodes[1] == [
        "Node 1: the root",
        f"  S = {{{days}}}",
        f"  [9+, 5-]  Entropy(S) = {s:.3f}",
        f"  Gain(S, Outlook) = {s - 5 / 14 * H(2, 3) - 4 / 14 * H(4) - 5 / 14 * H(3, 2):.3f}",
        f"  Gain(S, Temperature) = {s - 4 / 14 * H(2, 2) - 6 / 14 * H(4, 2) - 4 / 14 * H(3, 1):.3f}",
        f"  Gain(S, Humidity) = {s - 7 / 14 * H(3, 4) - 7 / 14 * H(6, 1):.3f}",
        f"  Gain(S, Wind) = {s - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3):.3f}",
        f"  Split on Outlook: the highest gain ({s - 5 / 14 * H(2, 3) - 5 / 14 * H(3, 2):.3f})",
    ]
    assert [line[-5:] for line in nodes[1][3:7]] == ["0.247", "0.029", "0.152", "0.048"]  # Mitchell's 0.246, 0.151
    sunny = H(2, 3)
    assert nodes[2] == [
        "Node 2: Outlook = Sunny (branch of node 1)",
        "  S_Sunny = {D1, D2, D8, D9, D11}",
        f"  [2+, 3-]  Entropy(S_Sunny) = {sunny:.3f}",
        f"  Gain(S_Sunny, Temperature) = {sunny - 2 / 5 * H(1, 1):.3f}",
        f"  Gain(S_Sunny, Humidity) = {sunny:.3f}",
        f"  Gain(S_Sunny, Wind) = {sunny - 3 / 5 * H(1, 2) - 2 / 5 * H(1, 1):.3f}",
        f"  Split on Humidity: the highest gain ({sunny:.3f})",
    ]
    assert nodes[3] == [
        "Node 3: Outlook = Sunny, Humidity = High (branch of node 2)",
        "  S_High = {D1, D2, D8}",
        "  [0+, 3-]  Entropy(S_High) = 0.000",
        "  Leaf No: pure (every case is of one class)",
    ]
    assert nodes[5][:2] == ["Node 5: Outlook = Overcast (branch of node 1)", "  S_Overcast = {D3, D7, D12, D13}"]
    assert nodes[6][1] == "  S_Rain = {D4, D5, D6, D10, D14}"
    assert nodes[6][-1] == f"  Split on Wind: the highest gain ({H(3, 2):.3f})"
    assert sorted(nodes) == list(range(1, 9))  # 8 nodes, in depth-first order
    assert "No pruning decisions were made" in result.stderr


def test_row_numbers_without_id(run):
    result = run("train", WEATHER, "--ignore", "Day", "--trace", "-q")
    nodes = blocks(result.stderr)
    assert nodes[2][1] == "  S_Sunny = {1, 2, 8, 9, 11}"


def test_long_subsets_are_cut(run, tmp_path):
    path = tmp_path / "long.csv"
    path.write_text("A,C\n" + "".join(f"{'x' if i % 2 else 'y'},{'yes' if i % 3 else 'no'}\n" for i in range(50)))
    result = run("train", path, "--trace", "-q")
    first = blocks(result.stderr)[1][1]
    assert first == "  S = {" + ", ".join(str(i) for i in range(1, 21)) + ", ... (50 rows)}"


def test_id_errors(run):
    result = run("train", WEATHER, "--trace", "--id", "Nope")
    assert result.exit_code == 1 and "no column 'Nope' (from --id)" in result.stderr
    result = run("train", WEATHER, "--trace", "--id", "PlayTennis")
    assert result.exit_code == 1 and "--id 'PlayTennis' is the target column" in result.stderr


def test_cart_narration_from_counts(run):
    risk = SAMPLES / "risk.csv"
    result = run("train", risk, "-a", "cart", "--ignore", "Point", "--trace", "-q")
    root = blocks(result.stderr)[1]
    g = gini(2, 4)
    assert root[2] == f"  [L 2, H 4]  Gini(S) = {g:.3f}"
    # Age <= 22.5 leaves {20, 20} (two H) on the left; Car in {Sports} holds 2 L and 1 H
    assert root[3] == f"  GiniGain(S, Age <= 22.5) = {g - 4 / 6 * gini(2, 2):.3f}"
    assert root[4] == f"  GiniGain(S, Car in {{Sports}}) = {g - 3 / 6 * gini(2, 1):.3f}"
    assert root[5].startswith("  Split on Car in {Sports}: the highest Gini gain")


def test_c45_narration(run):
    result = run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "--trace", "-q")
    root = blocks(result.stderr)[1]
    outlook = H(9, 5) - 5 / 14 * H(2, 3) - 5 / 14 * H(3, 2)
    assert root[3] == f"  Gain(S, Outlook) = {outlook:.3f}, GainRatio(S, Outlook) = {outlook / H(5, 4, 5):.3f}"
    assert "after the MDL correction " + f"{math.log2(9) / 14:.3f}" + ": no gain left" in root[4]
    assert "below the average gain" in root[6] and root[6].startswith("  Gain(S, Windy)")
    assert root[7].startswith("  Split on Outlook: the highest gain ratio")
    assert "among the attributes with at least the average gain" in root[7]
    assert "Pessimistic pruning" in result.stderr  # then pruning, as before


def test_regression_narration(run, tmp_path):
    path = tmp_path / "r.csv"
    path.write_text("x,y\n1,1\n2,1\n3,5\n4,5\n")
    result = run("train", path, "-a", "cart", "--trace", "-q")
    root = blocks(result.stderr)[1]
    assert root[2] == "  [n 4, mean 3]  MSE(S) = 4"
    assert root[3] == "  MSEDecrease(S, x <= 2.5) = 4"


def test_costs_name_the_measure(run, tmp_path):
    costs = tmp_path / "costs.csv"
    costs.write_text("Outlook,3\n")
    result = run("train", WEATHER, "--ignore", "Day", "--costs", costs, "--trace", "-f", "text")
    root = blocks(result.stderr)[1]
    outlook = H(9, 5) - 5 / 14 * H(2, 3) - 5 / 14 * H(3, 2)
    assert root[3] == f"  Gain(S, Outlook) = {outlook:.3f}, Cost(Outlook) = 3, Gain/Cost = {outlook / 3:.3f}"
    assert root[-1].startswith("  Split on Humidity: the highest Gain/Cost")
    shown = run("train", WEATHER, "--ignore", "Day", "--costs", costs)
    assert f"split on Humidity (Gain/Cost {H(9, 5) - 7 / 14 * H(3, 4) - 7 / 14 * H(6, 1):.3f})" in shown.stdout
    nunez = run("train", WEATHER, "--ignore", "Day", "--costs", costs, "--cost-measure", "nunez")
    assert "((2^Gain-1)/(Cost+1)^w " in nunez.stdout
    squared = run("train", WEATHER, "--ignore", "Day", "--costs", costs, "--cost-measure", "tan-schlimmer")
    assert "(Gain^2/Cost " in squared.stdout


def _document(stderr: str) -> dict:
    doc, _ = json.JSONDecoder().raw_decode(stderr)
    return doc


def test_json_document(run, tmp_path):
    result = run("train", WEATHER, "-t", "PlayTennis", "--id", "Day", "--trace", "-f", "json")
    assert result.exit_code == 0
    json.loads(result.stdout)  # stdout stays the model
    doc = _document(result.stderr)
    assert doc["format"] == "dtree-trace" and doc["schema_version"] == 1
    assert doc["method"] == "none" and doc["steps"] == [] and doc["chi_square"] == []
    assert doc["algorithm"] == "id3" and doc["measure"] == "gain"
    growth = doc["growth"]
    assert [g["id"] for g in growth] == list(range(1, 9))
    root, sunny = growth[0], growth[1]
    assert root["ids"] == [f"D{i}" for i in range(1, 15)] and root["counts"] == {"No": 5.0, "Yes": 9.0}
    assert root["impurity"] == {"measure": "entropy", "value": pytest.approx(H(9, 5))}
    assert [c["attribute"] for c in root["candidates"]] == ["Outlook", "Temperature", "Humidity", "Wind"]
    assert root["chosen"]["attribute"] == "Outlook" and root["split"] is True
    assert sunny["path"] == ["Outlook = Sunny"] and sunny["ids"] == ["D1", "D2", "D8", "D9", "D11"]
    leaf = growth[2]
    assert leaf["leaf"] == {"label": "No", "reason": "pure"} and leaf["split"] is False
    into = tmp_path / "trace.json"
    quiet = run("train", WEATHER, "-t", "PlayTennis", "--ignore", "Day", "--trace-file", into, "-f", "json", "-q")
    assert quiet.exit_code == 0 and "dtree-trace" not in quiet.stderr
    written = json.loads(into.read_text())
    assert written["growth"][1]["rows"] == [1, 2, 8, 9, 11]


def test_json_keeps_the_pruning_fields(run):
    result = run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "--trace", "-f", "json", "-q")
    doc = _document(result.stderr)
    assert doc["method"] == "pessimistic" and len(doc["steps"]) == 3
    assert set(doc["steps"][0]) == {"node", "cases", "leaf", "subtree", "branch", "decision"}
    assert doc["growth"][0]["average_gain"] == pytest.approx(
        (H(9, 5) - 5 / 14 * H(2, 3) - 5 / 14 * H(3, 2) + H(9, 5) - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3)) / 2
    )


def test_trace_file_text_and_refused_input(run, tmp_path):
    into = tmp_path / "trace.txt"
    result = run("train", WEATHER, "--ignore", "Day", "--trace-file", into, "-q")
    assert result.exit_code == 0 and "Node 1" not in result.stderr
    assert into.read_text().splitlines()[1] == "Node 1: the root"
    refused = run("train", WEATHER, "--ignore", "Day", "--trace-file", WEATHER)
    assert refused.exit_code == 1


def test_compiled_engine_grows_the_same_tree_and_traces(run, tmp_path):
    rng = np.random.default_rng(7)
    n = 6000
    a, b, c = rng.integers(0, 3, n), rng.integers(0, 2, n), rng.integers(0, 4, n)
    y = np.where((a == 1) & (b == 0) | (c == 3), "yes", "no")
    flip = rng.random(n) < 0.05
    y = np.where(flip, np.where(y == "yes", "no", "yes"), y)
    path = tmp_path / "big.csv"
    path.write_text("A,B,C,Y\n" + "".join(f"a{i},b{j},c{k},{v}\n" for i, j, k, v in zip(a, b, c, y)))
    plain = run("train", path, "-a", "c45", "--engine", "compiled", "-f", "text")
    traced = run("train", path, "-a", "c45", "--engine", "compiled", "-f", "text", "--trace")
    assert plain.exit_code == 0 and traced.exit_code == 0
    assert traced.stdout == plain.stdout
    nodes = blocks(traced.stderr)
    assert nodes[1][1].endswith(f", ... ({n} rows)}}")
    assert len(nodes) >= plain.stdout.count("\n")


def test_deep_chain_trace_is_linear(run, tmp_path):
    """A chain (regression on y = 10^x: each split peels off the largest value): paths and
    subsets are cut short, so every line stays short however deep the node."""
    n = 60
    path = tmp_path / "chain.csv"
    path.write_text("x,y\n" + "".join(f"{i},1e{i}\n" for i in range(1, n + 1)))
    result = run("train", path, "-a", "cart", "--trace", "-q")
    assert result.exit_code == 0
    nodes = blocks(result.stderr)
    assert len(nodes) == 2 * n - 1
    deep = [block[0] for block in nodes.values() if "..., " in block[0]]
    assert len(deep) == 2 * (n - 1 - 6)  # the nodes below depth 6, each with its last 6 conditions
    assert all(line.count("x <=") + line.count("x >") == 6 for line in deep)
    assert max(len(line) for line in result.stderr.splitlines()) < 200


def test_json_chi_square_and_reduced_error(run):
    result = run("train", WEATHER, "--ignore", "Day", "--chi2-alpha", "0.01", "--trace", "-f", "json", "-q")
    doc = _document(result.stderr)
    (root,) = doc["growth"]
    assert root["leaf"]["reason"] == "not-significant" and root["leaf"]["chi_square"]["df"] == 2
    assert [c["decision"] for c in doc["chi_square"]] == ["leaf"] and doc["chi_square"][0]["attribute"] == "Outlook"
    text = run("train", WEATHER, "--ignore", "Day", "--chi2-alpha", "0.01", "--trace", "-q").stderr
    assert "Leaf Yes: the split is not significant under chi-square (--chi2-alpha) (best: Outlook, gain 0.247; " in text
    result = run("train", WEATHER, "--ignore", "Day", "--prune", "reduced-error", "--trace", "-f", "json", "-q")
    doc = _document(result.stderr)
    assert doc["method"] == "reduced-error" and doc["growth"][0]["n_rows"] < 14  # grown on the rows not held out


HAND = """A,B,C,class
a1,b1,c1,yes
a1,b1,c2,yes
a2,b2,c1,no
a2,b2,c2,no
a2,b1,c1,yes
a2,?,c2,no
a2,b1,c2,yes
a2,b2,c1,no
a3,b1,c1,no
a3,b1,c2,no
a3,b1,c1,no
a3,b1,c2,no
"""


@pytest.mark.parametrize(
    "policy, gain_b",
    [
        # at A = a2 (rows 3-8) B is b2 on 3, b1 on 2: row 6 becomes b2, both branches are pure
        ("majority", H(2, 4)),
        # the whole table has b1 on 8 of 11: row 6 stays b1, so b1 = [2 yes, 1 no] and b2 = [0, 3]
        ("root-majority", H(2, 4) - 3 / 6 * H(2, 1)),
    ],
)
def test_the_trace_scores_the_values_filled_in_at_the_node(run, tmp_path, policy, gain_b):
    data = tmp_path / "hand.csv"
    data.write_text(HAND)
    result = run("train", data, "--missing", policy, "--trace", "-q")
    assert result.exit_code == 0, result.stderr
    node = blocks(result.stderr)[3]
    assert node[0] == "Node 3: A = a2 (branch of node 1)"
    assert f"  Gain(S_a2, B) = {gain_b:.3f}" in node and "  Gain(S_a2, C) = 0.000" in node
    assert "-0.000" not in result.stderr
