"""``dtree diff``: trees trained on shuffled rows are equivalent, changes are found, exit status as diff(1).

The shuffled tables are the sample files and Weka's vote.arff (missing values: C4.5's fractional
counts, which another row order adds up in another order, so the model files differ in the last
bits) with their data rows in a seeded random order. CSV lists nominal values and classes in
order of first appearance, so the shuffled files also give other branch and class orders.
CART: dtree's default tie order (scikit-learn's, ``--seed 0``) visits the attributes in an order
drawn per node, independent of the rows, so it is tested as is and with ``--ties column``.
"""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from helpers import SAMPLES, WEKA

SHUFFLED = [
    ("id3", "weather.csv", ("--ignore", "Day")),
    ("id3", "contact-lenses.csv", ()),
    ("id3", "iris.csv", ("--thresholds", "midpoint")),
    ("c45", "weather-numeric.csv", ()),
    ("c45", "weather-numeric.csv", ("--no-prune",)),
    ("c45", "iris.csv", ()),
    ("c45", "vote.arff", ()),
    ("c45", "vote.arff", ("--no-prune",)),
    ("cart", "iris.csv", ()),
    ("cart", "iris.csv", ("--ties", "column")),
    ("cart", "contact-lenses.csv", ("--ties", "column")),
    ("cart", "restaurant.csv", ()),
    ("cart", "vote.arff", ("--ties", "column")),
]


def shuffled_copy(source, target, seed: int = 7) -> None:
    """``source`` with its data rows in another order (header or ARFF declarations kept)."""
    lines = source.read_text().splitlines()
    if source.suffix == ".arff":
        start = next(i for i, line in enumerate(lines) if line.strip().lower() == "@data") + 1
        rows = [line for line in lines[start:] if line.strip() and not line.startswith("%")]
    else:
        start, rows = 1, lines[1:]
    random.Random(seed).shuffle(rows)
    target.write_text("\n".join(lines[:start] + rows) + "\n")


def data_file(name: str):
    return WEKA / "data" / name if name.endswith(".arff") else SAMPLES / name


@pytest.mark.parametrize(("algorithm", "name", "options"), SHUFFLED)
def test_the_same_table_shuffled_grows_an_equivalent_tree(run, tmp_path, algorithm, name, options):
    shuffled = tmp_path / f"shuffled-{name}"
    shuffled_copy(data_file(name), shuffled)
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for data, model in ((data_file(name), a), (shuffled, b)):
        done = run("train", data, "-a", algorithm, *options, "-q", "-o", model)
        assert done.exit_code == 0, done.stderr
    assert a.read_text() != b.read_text()  # another source and sha256 at least
    done = run("diff", a, b)
    assert done.exit_code == 0, done.stdout
    assert done.stdout.startswith(f"Trees {a} (A) and {b} (B) are equivalent\n")


def test_fractional_counts_of_shuffled_rows_differ_in_the_last_bits(run, tmp_path):
    """Why counts compare to 1e-9: C4.5 on vote.arff (missing values) shuffled gives counts that are
    not bit for bit the same, though the tree is."""
    shuffled = tmp_path / "vote.arff"
    shuffled_copy(data_file("vote.arff"), shuffled)
    models = []
    for data in (data_file("vote.arff"), shuffled):
        models.append(json.loads(run("train", data, "-a", "c45", "-f", "json").stdout))
    counts = [[], []]
    for model, out in zip(models, counts):
        stack = [model["root"]]
        while stack:
            node = stack.pop()
            out.append(node["counts"])
            stack.extend(b["node"] for b in node.get("branches", []))
    gaps = [abs(x - y) for p, q in zip(*counts) for x, y in zip(p, q)]
    assert len(counts[0]) == len(counts[1]) and 0 < max(gaps) < 1e-12


@pytest.fixture
def golf(run, tmp_path):
    """C4.5 unpruned on the golf data (Humidity <= 75 under sunny) and the file of the same tree."""
    path = tmp_path / "golf.json"
    assert run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "--no-prune", "-q", "-o", path).exit_code == 0
    return path


def moved(golf, tmp_path, threshold: float):
    path = tmp_path / f"golf-{threshold:g}.json"
    path.write_text(golf.read_text().replace('"threshold": 75.0', f'"threshold": {threshold!r}'))
    assert path.read_text() != golf.read_text()
    return path


def test_a_moved_threshold_differs_unless_forgiven(run, golf, tmp_path):
    other = moved(golf, tmp_path, 80.0)
    done = run("diff", golf, other)
    assert done.exit_code == 1
    assert done.stdout == (
        f"Trees {golf} (A) and {other} (B) differ\n"
        "First difference at Outlook = sunny: the threshold\n"
        "  A: split on Humidity <= 75 [no 3, yes 2]\n"
        "  B: split on Humidity <= 80 [no 3, yes 2]\n"
        "Nodes: 7 match, 1 differ, 0 only in A, 0 only in B (A has 8, B has 8)\n"
    )
    assert run("diff", golf, other, "--tolerance", "5").exit_code == 0
    assert run("diff", golf, other, "--tolerance", "4.5").exit_code == 1


def test_a_model_and_itself_trained_from_another_file_name(run, golf, tmp_path):
    copy = tmp_path / "golf-copy.csv"
    copy.write_bytes((SAMPLES / "weather-numeric.csv").read_bytes() + b"\n")  # another sha256 too
    again = tmp_path / "again.json"
    assert run("train", copy, "-a", "c45", "--no-prune", "-q", "-o", again).exit_code == 0
    assert json.loads(again.read_text())["training_data"] != json.loads(golf.read_text())["training_data"]
    assert run("diff", golf, again).exit_code == 0


def test_a_pruned_tree_differs_from_the_unpruned_one(run, tmp_path):
    """C4.5 on Weka's labor data: pruning (J48's, without subtree raising) cuts subtrees the unpruned
    tree has into leaves."""
    full, pruned = tmp_path / "full.json", tmp_path / "pruned.json"
    labor = WEKA / "data" / "labor.arff"
    assert run("train", labor, "-a", "c45", "--no-prune", "-q", "-o", full).exit_code == 0
    assert run("train", labor, "-a", "c45", "--no-raise", "-q", "-o", pruned).exit_code == 0
    done = run("diff", full, pruned, "-f", "json")
    assert done.exit_code == 1
    doc = json.loads(done.stdout)
    s = doc["summary"]
    assert s["only_a"] > 0 and s["only_b"] == 0
    assert s["matching"] + s["differing"] + s["only_a"] == s["a"] == _size(full)
    assert s["matching"] + s["differing"] == s["b"] == _size(pruned)
    first = doc["first_difference"]
    assert first["aspects"][0] == "kind" and first["a"]["kind"] == "split" and first["b"]["kind"] == "leaf"
    text = run("diff", full, pruned).stdout
    path = " -> ".join(first["path"]) or "the root"
    assert f"First difference at {path}: leaf against split" in text


def _size(path) -> int:
    stack, count = [json.loads(path.read_text())["root"]], 0
    while stack:
        node = stack.pop()
        count += 1
        stack.extend(b["node"] for b in node.get("branches", []))
    return count


def test_agreement_on_data_is_what_predict_gives(run, golf, tmp_path):
    other = moved(golf, tmp_path, 65.0)  # the sunny days with humidity 70 now go the other way
    data = SAMPLES / "weather-numeric.csv"
    predicted = []
    for model in (golf, other):
        rows = list(csv.DictReader(io.StringIO(run("predict", model, data, "-q").stdout)))
        predicted.append([r["prediction"] for r in rows])
    same = sum(x == y for x, y in zip(*predicted))
    assert same < len(predicted[0])  # the moved threshold changes some predictions
    done = run("diff", golf, other, "--data", data, "-f", "json")
    agreement = json.loads(done.stdout)["agreement"]
    assert agreement == {
        "data": str(data), "rows": len(predicted[0]), "same": same, "share": same / 14, "regression": False,
    }  # fmt: skip
    text = run("diff", golf, other, "--data", data).stdout
    assert f"Agreement on {data}: {same} of 14 rows ({100 * same / 14:.1f}%) get the same class\n" in text


def test_json_document_keys(run, golf, tmp_path):
    done = run("diff", golf, golf, "-f", "json")
    assert done.exit_code == 0
    doc = json.loads(done.stdout)
    assert list(doc)[:2] == ["format", "schema_version"]
    assert sorted(doc) == sorted([
        "format", "schema_version", "equivalent", "kind", "a", "b", "tolerance", "problems", "notes", "summary",
        "first_difference", "differences", "differences_found", "differences_limit", "agreement",
    ])  # fmt: skip
    assert (doc["format"], doc["schema_version"], doc["equivalent"], doc["kind"]) == ("dtree-diff", 1, True, "tree")
    assert doc["a"] == {"file": str(golf), "format": "dtree-model"}
    assert doc["tolerance"] == {"threshold": 0.0, "counts": 0.0, "count_noise": 1e-9}
    assert sorted(doc["summary"]) == ["a", "b", "differing", "matching", "only_a", "only_b", "units"]
    assert doc["first_difference"] is None and doc["differences"] == [] and doc["agreement"] is None
    other = json.loads(run("diff", golf, moved(golf, tmp_path, 80.0), "-f", "json").stdout)
    assert other["equivalent"] is False and other["differences_found"] == 1
    assert sorted(other["first_difference"]) == ["a", "aspects", "b", "path"]
    assert sorted(other["first_difference"]["a"]) == ["counts", "kind", "label", "test"]


def test_output_file_and_standard_output(run, golf, tmp_path):
    out = tmp_path / "result.json"
    done = run("diff", golf, golf, "-f", "json", "-o", out)
    assert done.exit_code == 0 and done.stdout == ""
    assert json.loads(out.read_text())["equivalent"] is True
    assert run("diff", golf, golf, "-o", "-").stdout.startswith("Trees ")
    refused = run("diff", golf, golf, "-o", golf)
    assert refused.exit_code == 2 and refused.stderr.startswith("Error: ")


def test_rule_sets_compare(run, golf, tmp_path):
    rules, other_rules = tmp_path / "rules.json", tmp_path / "other.json"
    assert run("rules", golf, "-f", "json", "-o", rules).exit_code == 0
    assert run("rules", moved(golf, tmp_path, 80.0), "-f", "json", "-o", other_rules).exit_code == 0
    assert run("diff", rules, rules).exit_code == 0
    done = run("diff", rules, other_rules)
    assert done.exit_code == 1
    assert done.stdout.startswith(f"Rule sets {rules} (A) and {other_rules} (B) differ\nFirst difference at rule R1")
    reordered = json.loads(rules.read_text())
    reordered["rules"].reverse()
    swapped = tmp_path / "reordered.json"
    swapped.write_text(json.dumps(reordered))
    done = run("diff", rules, swapped)
    assert done.exit_code == 1 and "Note: the same rules in another order" in done.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"format": "dtree-model", "schema_version": 1', "not a dtree model: invalid JSON"),
        ('{"format": "something-else"}', "not a dtree model"),
        ("", "not a dtree model"),
    ],
)
def test_a_damaged_or_foreign_model_is_trouble(run, golf, tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    for args in ((golf, bad), (bad, golf)):
        done = run("diff", *args)
        assert done.exit_code == 2 and done.stdout == ""
        assert done.stderr.startswith(f"Error: {bad}: ") and message in done.stderr


def test_other_trouble_exits_2(run, golf, tmp_path):
    rules = tmp_path / "rules.json"
    assert run("rules", golf, "-f", "json", "-o", rules).exit_code == 0
    mixed = run("diff", golf, rules)
    assert mixed.exit_code == 2
    assert mixed.stderr == (
        f"Error: {rules} is a rule set and {golf} a tree: compare a tree with a tree, or the tree's rules "
        f"with the rule set (dtree rules {golf} -f json -o rules.json)\n"
    )
    assert run("diff", golf, tmp_path / "absent.json").exit_code == 2
    negative = run("diff", golf, golf, "--tolerance", "-1")
    assert negative.exit_code == 2 and negative.stderr == "Error: --tolerance must be 0 or more (0: exactly equal)\n"
    assert run("diff", golf, golf, "--count-tolerance", "nan").exit_code == 2
    assert run("diff", golf).exit_code == 2  # usage: B is missing
    assert run("diff", golf, golf, "--data", tmp_path / "absent.csv").exit_code == 2


def test_other_commands_keep_exit_status_1(run, tmp_path):
    assert run("show", tmp_path / "absent.json").exit_code == 1
