"""What the tree prints of its choices is true: a raised test shows no score it did not earn at its new
node, and C4.5 with the Gini criterion chooses by the known share of the decrease, as its gain table shows."""

from __future__ import annotations

import json
import re

from helpers import WEKA

LABOR = WEKA / "data" / "labor.arff"


def nodes(doc: dict):
    stack = [doc["root"]]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(branch["node"] for branch in node.get("branches", []))


def test_a_raised_test_prints_no_score_of_the_node_it_replaced(run, tmp_path):
    pruned, unpruned = tmp_path / "p.json", tmp_path / "u.json"
    assert run("train", LABOR, "-a", "c45", "-q", "-o", pruned).exit_code == 0
    assert run("train", LABOR, "-a", "c45", "--prune", "none", "-q", "-o", unpruned).exit_code == 0
    raised = run("train", LABOR, "-a", "c45", "--trace-file", tmp_path / "t.txt", "-q")
    assert raised.exit_code == 0
    doc = json.loads(pruned.read_text())
    second = doc["root"]["branches"][1]["node"]
    assert second["test"]["attribute"] == "statutory-holidays"  # J48's tree: raised from below
    assert "score" not in second  # (0.180 was longterm-disability-assistance's, the test it replaced)
    assert all("score" in n for n in nodes(json.loads(unpruned.read_text())) if "test" in n)
    shown = run("show", pruned, "-f", "text").stdout + run("show", pruned, "-f", "dot").stdout
    assert "0.180" not in shown


def test_c45_with_gini_chooses_by_the_known_share_as_its_table_shows(run):
    gain = run("gain", LABOR, "-a", "c45", "-c", "gini").stdout
    starred = re.search(r"^\* (\S+)", gain, re.M).group(1)
    scores = {m.group(1): float(m.group(2)) for m in re.finditer(r"^[* ] (\S+)\s+│.*?([0-9.]+)\s*$", gain, re.M)}
    assert starred == "wage-increase-first-year" and scores[starred] == max(scores.values())
    assert "chosen by Gini gain (C4.5, before pruning): wage-increase-first-year" in gain  # J48 has no Gini criterion
    for engine in ("reference", "compiled"):
        tree = run("train", LABOR, "-a", "c45", "-c", "gini", "--prune", "none", "--engine", engine, "-f", "text")
        assert tree.stdout.startswith("wage-increase-first-year <= 2.5"), (engine, tree.stdout[:200])


def test_gain_writes_its_derivation_to_md_and_tex_files(run, tmp_path):
    weather = WEKA / "data" / "weather.nominal.arff"
    for name, start in (("g.md", "## play: the worked computation"), ("g.tex", "% dtree gain --explain: play")):
        assert run("gain", weather, "-o", tmp_path / name).exit_code == 0
        assert (tmp_path / name).read_text().startswith(start)
    refused = run("gain", weather, "--explain-format", "markdown", "-o", tmp_path / "x.tex")
    assert refused.exit_code == 1 and "--explain-format markdown contradicts -o" in refused.stderr
    assert not (tmp_path / "x.tex").exists()


def test_gain_says_it_left_out_rows_without_a_class_on_both_paths(run, tmp_path, monkeypatch):
    path = tmp_path / "nl.csv"
    path.write_text("a,b,cls\n1,x,yes\n2,y,\n3,x,no\n4,y,?\n5,x,yes\n")
    for plain in ("1", "0"):
        monkeypatch.setenv("DTREE_PLAIN", plain)
        for args in ([], ["-a", "c45"]):
            result = run("gain", path, *args)
            assert f"{path}: 2 row(s) without a class value were left out" in result.stderr, (plain, args)
            assert "3 rows" in result.stdout.splitlines()[0]


def test_digits_without_explain_is_refused(run):
    weather = WEKA / "data" / "weather.nominal.arff"
    refused = run("gain", weather, "--digits", "5")
    assert refused.exit_code == 1 and "--digits 5 sets the decimals of --explain's derivation" in refused.stderr
    assert "rounded to 5 decimals" in run("gain", weather, "--digits", "5", "--explain").stdout


def test_gain_says_whose_choice_it_shows_with_missing_values_and_pruning(run):
    vote = WEKA / "data" / "vote.arff"
    gain = run("gain", vote)
    assert "* chosen by information gain: physician-fee-freeze" in gain.stdout
    assert "* is the choice of --missing fractional" in gain.stderr
    tree = run("train", vote, "--missing", "fractional", "-f", "text").stdout
    assert tree.startswith("physician-fee-freeze = ")
    assert "before pruning" in run("gain", WEKA / "data" / "unbalanced.arff", "-a", "c45").stdout
    assert "Note" not in run("gain", WEKA / "data" / "weather.nominal.arff").stderr


def test_a_where_condition_copied_from_the_printed_tree_is_its_branch(run):
    segment = WEKA / "data" / "segment-challenge.arff"
    tree = run("train", segment, "-a", "cart", "--max-depth", "1", "-f", "text").stdout
    copied = tree.splitlines()[0].split(":")[0].replace(" ", "")  # value-mean<=101.7777, rounded as printed
    assert copied.startswith("value-mean<=") and copied != "value-mean<=101.7776985168457"  # (rounded)
    note = run("gain", segment, "-a", "cart", "-w", copied, "-f", "json")
    assert json.loads(note.stdout)["path_note"] is None
    other = json.loads(run("gain", segment, "-a", "cart", "-w", "value-mean<=101.7", "-f", "json").stdout)
    assert "no --where condition is one of its branches" in other["path_note"]
