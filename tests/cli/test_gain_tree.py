"""``dtree gain -a id3|c45|cart`` stars the split the tree makes: against dtree train, Weka and scikit-learn."""

from __future__ import annotations

import json
import re

import pytest

from helpers import SAMPLES, WEKA

DATA = WEKA / "data"
EXPECTED = WEKA / "expected"
IGNORE = {
    "weather.csv": ("--ignore", "Day"),
    "restaurant.csv": ("--ignore", "Example"),
    "risk.csv": ("--ignore", "Point"),
}
FILES = sorted(DATA.glob("*.arff")) + sorted(p for p in SAMPLES.iterdir() if p.suffix in (".csv", ".arff"))
ALGORITHMS = ("id3", "c45", "cart")


def _train(run, path, algorithm, *more):
    """The model dtree train grows (unpruned, the per-node grower; two levels but for C4.5, which
    collapses a subtree that makes as many training errors as a leaf, J48's collapse), or None if it
    refuses."""
    extra = ("--thresholds", "midpoint") if algorithm == "id3" else ()  # gain scores ID3's numbers at midpoints
    depth = () if algorithm == "c45" or more else ("--max-depth", "2")
    args = ("train", path, *IGNORE.get(path.name, ()), "-a", algorithm, *extra, "--no-prune", *depth)
    result = run(*args, "--engine", "reference", *more, "-q", "-o", "-")
    return json.loads(result.stdout) if result.exit_code == 0 else None


def _gain(run, path, algorithm, *more):
    result = run("gain", path, *IGNORE.get(path.name, ()), "-a", algorithm, "-f", "json", "-q", *more)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def _starred(doc):
    """(attribute, threshold or None, subset or None) of the split a gain document chooses."""
    if doc["chosen"] is None:
        return None
    if doc.get("task") == "regression":
        return doc["chosen"], None, None
    if doc.get("splits") == "binary":
        row = next(c for c in doc["candidates"] if c["split"] == doc["chosen_split"])
        return row["name"], row.get("threshold"), row.get("values")
    row = next(a for a in doc["attributes"] if a["name"] == doc["chosen"])
    return row["name"], row.get("threshold"), None


def _same(starred, test) -> bool:
    """Whether gain's starred split is the tree's ``test`` (a subset may be listed as its complement)."""
    if test is None or starred is None:
        return test is None and starred is None
    name, threshold, values = starred
    if name != test["attribute"]:
        return False
    if test["kind"] == "numeric":
        return threshold is None or threshold == test["threshold"]  # (regression rows name no threshold)
    if test["kind"] == "subset":
        return set(values) == set(test["values"]) or not set(values) & set(test["values"])
    return True


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_star_is_the_root_of_the_tree(run, path, algorithm):
    model = _train(run, path, algorithm)
    if model is None:
        pytest.skip(f"dtree train -a {algorithm} refuses {path.name}")
    doc = _gain(run, path, algorithm)
    assert _same(_starred(doc), model["root"].get("test")), (_starred(doc), model["root"].get("test"))


def _weka_root(text: str):
    """The test at the root of a tree as Weka prints it: (attribute, '=' or '<=', value) or None (a leaf)."""
    first = text.splitlines()[0]
    match = re.match(r"(.+?) (=|<=|>) (.+?)(?::| \(|$)", first)
    return None if match is None else match.groups()


@pytest.mark.parametrize("expected", sorted(EXPECTED.glob("*.j48-unpruned.txt")), ids=lambda p: p.name)
def test_c45_chooses_what_j48_chooses(run, expected):
    """J48 -U's recorded root (Weka 3.6.14): the attribute and the threshold as J48 prints it."""
    name = expected.name.split(".j48")[0]
    path = DATA / f"{name}.arff" if (DATA / f"{name}.arff").exists() else DATA / f"{name}.nominal.arff"
    root = _weka_root(expected.read_text())
    doc = _gain(run, path, "c45")
    starred = _starred(doc)
    if root is None:
        assert starred is None
        return
    assert starred[0] == root[0]
    if root[1] != "=":
        assert starred[1] == pytest.approx(float(root[2]), rel=1e-6)


@pytest.mark.parametrize("expected", sorted(EXPECTED.glob("*.id3.txt")), ids=lambda p: p.name)
def test_id3_chooses_what_weka_id3_chooses(run, expected):
    name = expected.name.split(".id3")[0]
    path = DATA / f"{name}.arff" if (DATA / f"{name}.arff").exists() else DATA / f"{name}.nominal.arff"
    assert _starred(_gain(run, path, "id3"))[0] == _weka_root(expected.read_text())[0]


NUMERIC = ("iris.arff", "iris.2D.arff", "diabetes.arff", "glass.arff")  # (all numeric, nothing missing)


@pytest.mark.parametrize("name", NUMERIC)
def test_cart_chooses_what_scikit_learn_chooses(run, name):
    """scikit-learn's DecisionTreeClassifier(random_state=0) root, the feature and its threshold."""
    tree_module = pytest.importorskip("sklearn.tree")
    import numpy as np

    from helpers import load

    table = load(DATA / name)
    x = np.column_stack(table.columns)
    fitted = tree_module.DecisionTreeClassifier(random_state=0).fit(x, table.y)
    feature, threshold = int(fitted.tree_.feature[0]), float(fitted.tree_.threshold[0])
    starred = _starred(_gain(run, DATA / name, "cart"))
    assert starred[0] == table.attributes[feature].name
    assert starred[1] == pytest.approx(threshold, rel=1e-6)


def _first_split(root):
    """(a --where condition selecting the rows of the root's first branch that splits, that branch's
    node); the condition None when --where cannot say it (a subset of several values)."""
    test = root["test"]
    k = next(k for k, branch in enumerate(root["branches"]) if branch["node"]["kind"] == "split")
    child = root["branches"][k]["node"]
    name = test["attribute"]
    if test["kind"] == "numeric":
        return f"{name}{'<=' if k == 0 else '>'}{test['threshold']!r}", child
    if test["kind"] == "nominal":
        return f"{name}={root['branches'][k]['value']}", child
    return (f"{name}{'=' if k == 0 else '!='}{test['values'][0]}" if len(test["values"]) == 1 else None), child


BELOW = [
    ("weather.csv", "id3"),
    ("weather.numeric.arff", "c45"),
    ("iris.arff", "id3"),
    ("diabetes.arff", "c45"),
    ("diabetes.arff", "cart"),
    ("credit-g.arff", "c45"),
    ("vote.arff", "c45"),
    ("glass.arff", "cart"),
]


@pytest.mark.parametrize("name, algorithm", BELOW)
def test_where_stars_the_split_one_level_down(run, name, algorithm):
    path = SAMPLES / name if (SAMPLES / name).exists() else DATA / name
    root = _train(run, path, algorithm, *(() if algorithm == "c45" else ("--max-depth", "3")))["root"]
    condition, child = _first_split(root)
    assert condition is not None
    doc = _gain(run, path, algorithm, "--where", condition)
    assert _same(_starred(doc), child["test"]), (condition, _starred(doc), child["test"])


def test_cart_names_the_ties_its_random_order_decides(run):
    """Below Patrons != Some, Hungry in {Yes} and WaitEstimate in {0-10, >60} have equal Gini gains;
    the tree (scikit-learn's order after the nodes before it) takes Hungry: the table says they tie."""
    path = SAMPLES / "restaurant.csv"
    root = _train(run, path, "cart", "--max-depth", "3")["root"]
    condition, child = _first_split(root)
    assert condition == "Patrons!=Some" and child["test"]["attribute"] == "Hungry"
    text = run("gain", path, "--ignore", "Example", "-a", "cart", "-w", condition).stdout
    assert (
        "* chosen by Gini gain: WaitEstimate in {0-10, >60}\nnote: Hungry in {Yes} ties with it to 12 decimals" in text
    )


def test_c45_below_sunny_is_j48s_humidity_cut(run):
    """J48's tree for weather.numeric: outlook = sunny, then humidity <= 75 (not the midpoint 77.5)."""
    doc = _gain(run, DATA / "weather.numeric.arff", "c45", "--where", "outlook=sunny")
    assert _starred(doc) == ("humidity", 75.0, None)
    text = run("gain", DATA / "weather.numeric.arff", "-a", "c45").stdout
    assert "* chosen by gain ratio (C4.5, as J48, before pruning): outlook" in text
    # temperature's best cut at the root gains less than its MDL correction (Quinlan 1996, J48): no split
    assert re.search(r"skipped temperature: its best cut, <= 70, gains 0\.045, .* log2\(9\)/14 = 0\.226", text)


def test_gain_ratio_names_the_average_gain_rule(run):
    """The star below the top row is explained: the average gain, and who is not eligible (brute force
    from the document's own gains)."""
    for path, algorithm in ((SAMPLES / "weather.csv", "id3"), (DATA / "labor.arff", "c45")):
        args = ("-c", "gain-ratio") if algorithm == "id3" else ()
        doc = _gain(run, path, algorithm, *args)
        rows = doc["attributes"]
        scored = [a for a in rows if a["gain_ratio"] is not None] if algorithm == "id3" else rows
        if algorithm == "id3":
            average = sum(a["gain"] for a in scored) / len(scored)
            assert doc["average_gain"] == pytest.approx(average, abs=1e-12)
        eligible = [a for a in rows if a["gain"] >= doc["average_gain"] - 1e-3]
        assert [a["name"] for a in rows if a["eligible"]] == [a["name"] for a in eligible]
        assert doc["chosen"] == max(eligible, key=lambda a: a["gain_ratio"])["name"]
    text = run("gain", SAMPLES / "weather.csv", "-c", "gain-ratio").stdout
    assert "* chosen by gain ratio: Day" in text
    assert "only attributes with at least the average gain 0.283 compete (Quinlan's rule)\n" in text
    assert "below the average gain: Outlook, Humidity, Wind, Temperature\n" in text
    lines = run("gain", SAMPLES / "weather.csv", "-c", "gain-ratio", "-f", "csv").stdout.splitlines()
    assert lines[0].endswith(",eligible") and lines[1].startswith("Day,") and lines[1].endswith(",yes,,,,yes")


def test_a_star_below_the_top_row_says_why(run):
    """soybean.arff under C4.5: leaves has the highest gain ratio but a gain below the average, so J48
    splits on leafspot-size (its recorded root); the table says so in every format."""
    doc = _gain(run, DATA / "soybean.arff", "c45")
    top = doc["attributes"][0]
    assert top["name"] == "leaves" and doc["chosen"] == "leafspot-size" and not top["eligible"]
    assert top["gain"] < doc["average_gain"] - 1e-3
    text = run("gain", DATA / "soybean.arff", "-a", "c45").stdout
    assert "* leafspot-size" in text and "below the average gain: leaves, " in text
    rows = run("gain", DATA / "soybean.arff", "-a", "c45", "-f", "csv").stdout.splitlines()
    assert rows[1].startswith("leaves,") and rows[1].endswith(",")
    assert rows[2].startswith("leafspot-size,") and rows[2].endswith(",yes")


def test_attribute_names_the_trees_choice(run):
    weather = ("gain", SAMPLES / "weather.csv", "--ignore", "Day")
    text = run(*weather, "--attribute", "Wind").stdout
    assert "Outlook, not shown here (--attribute)" in text and "* " not in text.split("\n", 3)[3]
    explained = run(*weather, "--explain", "--attribute", "Wind").stdout
    assert "Chosen: Outlook, by information gain among all the attributes" in explained
    assert "Chosen: Wind" not in explained
    doc = json.loads(run(*weather, "--attribute", "Wind", "-f", "json").stdout)
    assert doc["chosen"] == "Outlook" and [a["name"] for a in doc["attributes"]] == ["Wind"]
    shown = run(*weather, "--attribute", "Wind", "--attribute", "Outlook").stdout
    assert "* chosen by information gain: Outlook" in shown
    # gain ratio's rule over every attribute, the table's lines speaking of the ones shown only
    ratio = run("gain", SAMPLES / "weather.csv", "-q", "-c", "gain-ratio", "--attribute", "Wind").stdout
    assert (
        "among all attributes: Day, not shown here" in ratio
        and "below the average gain (of those shown): Wind" in ratio
    )


def test_attribute_with_no_gain_does_not_hide_one_that_has(run, tmp_path):
    """The issue's A1/A2: A2 gains nothing, A1 decides the class; --attribute A2 must not say 'no attribute'."""
    data = tmp_path / "a.csv"
    data.write_text("A1,A2,C\nx,p,yes\nx,q,yes\ny,p,no\ny,q,no\n")
    text = run("gain", data, "--attribute", "A2").stdout
    assert "no attribute improves" not in text and "among all attributes: A1, not shown here" in text
    explained = run("gain", data, "--attribute", "A2", "--explain").stdout
    assert "Chosen: A1, by information gain among all the attributes" in explained
    binary = run("gain", data, "-a", "cart", "--attribute", "A2").stdout
    assert "A1 in {x}" in binary and "not among the attributes shown" in binary


def test_where_and_attribute_together(run):
    """Below Outlook=Sunny the tree splits on Humidity: --attribute Wind says so, and stars nothing."""
    doc = json.loads(
        run(
            "gain",
            SAMPLES / "weather.csv",
            "--ignore",
            "Day",
            "-w",
            "Outlook=Sunny",
            "--attribute",
            "Wind",
            "-f",
            "json",
        ).stdout
    )
    assert doc["chosen"] == "Humidity" and [a["name"] for a in doc["attributes"]] == ["Wind"]


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_output_file_holds_what_stdout_shows(run, tmp_path, fmt, algorithm):
    args = ("gain", SAMPLES / "weather-numeric.csv", "-a", algorithm, "-f", fmt)
    shown = run(*args)
    out = tmp_path / f"gain.{fmt}"
    written = run(*args, "-o", out)
    assert written.exit_code == 0 and written.stdout == "" and written.stderr == shown.stderr
    assert (shown.stderr != "") == (algorithm == "id3")  # (ID3's note on its numeric cuts)
    assert out.read_text() == shown.stdout
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # (written atomically: no temporary left)


def test_output_file_from_the_plain_path(run, tmp_path, monkeypatch):
    """A small plain file takes the numpy-free path; -o writes the same bytes as the full one."""
    args = ("gain", SAMPLES / "weather.csv", "--ignore", "Day", "-c", "gain-ratio")
    plain, full = tmp_path / "plain.txt", tmp_path / "full.txt"
    assert run(*args, "-o", plain).exit_code == 0
    monkeypatch.setenv("DTREE_PLAIN", "0")
    assert run(*args, "-o", full).exit_code == 0
    assert plain.read_text() == full.read_text() == run(*args).stdout


def _on_a_terminal(args, env):
    """stdout of ``dtree ARGS`` run on a pseudo-terminal."""
    import os
    import pty
    import subprocess
    import sys

    main, secondary = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "dtcli", *map(str, args)], stdout=secondary, stderr=subprocess.DEVNULL, env=env
    )
    os.close(secondary)
    chunks = []
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    process.wait()
    os.close(main)
    return b"".join(chunks).decode()


@pytest.mark.parametrize("how", ["NO_COLOR", "--no-color"])
def test_no_color_leaves_no_bold(how):
    import os

    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"COLUMNS": "120", "TERM": "xterm-256color"}
    args = ["gain", SAMPLES / "weather.csv", "--ignore", "Day"]
    assert "\x1b[" in _on_a_terminal(args, env)  # (on a terminal, the header is bold)
    if how == "NO_COLOR":
        text = _on_a_terminal(args, env | {"NO_COLOR": "1"})
    else:
        text = _on_a_terminal(["--no-color", *args], env)
    assert "\x1b" not in text and "Outlook" in text


def test_c45_refuses_what_it_cannot_score(run):
    weather = ("gain", SAMPLES / "weather.csv", "-a", "c45")
    for extra, flag in ((("--splits", "binary"), "--splits binary"), (("--explain",), "--explain")):
        result = run(*weather, *extra)
        assert result.exit_code == 1 and flag in result.stderr and "Traceback" not in result.stderr
    result = run("gain", SAMPLES / "weather.csv", "-m", "2")
    assert result.exit_code == 1 and "--min-leaf applies to -a c45 and -a cart" in result.stderr


def test_output_file_for_explain_and_regression(run, tmp_path):
    explained = tmp_path / "explain.txt"
    args = ("gain", SAMPLES / "weather.csv", "--ignore", "Day", "--explain")
    assert run(*args, "-o", explained).stdout == ""
    assert explained.read_text() == run(*args).stdout and "Chosen: Outlook" in explained.read_text()
    table = tmp_path / "cpu.csv"
    args = ("gain", DATA / "cpu.arff", "-a", "cart", "-f", "csv")
    assert run(*args, "-o", table).exit_code == 0
    assert table.read_text() == run(*args).stdout and "MMAX,MMAX <= 48000," in table.read_text()


def test_where_off_the_trees_path_says_so(run):
    """dtree train's tree splits on Outlook, then Humidity below Sunny: conditions that follow those
    branches (in any order) get no note; others are told where the tree goes instead."""
    model = _train(run, SAMPLES / "weather.csv", "id3")["root"]
    assert model["test"]["attribute"] == "Outlook"
    weather = ("gain", SAMPLES / "weather.csv", "--ignore", "Day")
    for conditions in (["Outlook=Sunny"], ["Humidity=High", "Outlook=Sunny"]):
        doc = json.loads(run(*weather, *[f"-w{c}" for c in conditions], "-f", "json").stdout)
        assert doc["path_note"] is None
    off = run(*weather, "-w", "Wind=Weak").stdout
    assert "note: a tree splits at the root on Outlook, and no --where condition is one of its branches" in off
    leaf = run(*weather, "-w", "Outlook=Overcast", "-w", "Wind=Weak").stdout
    assert "note: a tree makes a leaf below Outlook=Overcast, before the rest of the conditions" in leaf
    c45 = json.loads(run("gain", DATA / "weather.numeric.arff", "-a", "c45", "-w", "humidity<=75", "-f", "json").stdout)
    assert c45["path_note"] == "a tree splits at the root on outlook, and no --where condition is one of its branches"
    below = (
        "gain",
        DATA / "weather.numeric.arff",
        "-a",
        "c45",
        "-w",
        "outlook=sunny",
        "-w",
        "humidity>75",
        "-f",
        "json",
    )
    assert json.loads(run(*below).stdout)["path_note"] is None
    assert "path_note" not in json.loads(run(*weather, "-f", "json").stdout)  # (only with --where)


def test_id3_says_whose_choice_its_numeric_cuts_are(run):
    """Without --thresholds, train -a id3 refuses numeric attributes: the table's * is the choice of
    train -a id3 --thresholds midpoint, and a note says so (not with -q, nor for a nominal table)."""
    note = "these cuts are midpoints, and * is the choice of 'dtree train -a id3 --thresholds midpoint'"
    shown = run("gain", SAMPLES / "iris.csv", "-f", "json")
    chosen = json.loads(shown.stdout)["chosen"]
    assert note in shown.stderr and len(shown.stderr.splitlines()) == 1
    tree = json.loads(run("train", SAMPLES / "iris.csv", "--thresholds", "midpoint", "-f", "json").stdout)
    assert tree["root"]["test"]["attribute"] == chosen
    assert note not in run("gain", SAMPLES / "iris.csv", "--thresholds", "midpoint").stderr
    assert note not in run("gain", SAMPLES / "iris.csv", "-q").stderr
    assert note not in run("gain", SAMPLES / "weather.csv", "--ignore", "Day").stderr


def test_c45_where_on_an_attribute_with_missing_values_says_the_tree_may_choose_otherwise(run):
    """soybean, --where leafspot-size=gt-1/8: 84 rows without leafspot-size reach that node of C4.5's tree
    with fractions of their weight (J48 -U splits it on roots), and --where leaves them out; the table
    stars leaf-mild, and once said nothing of it."""
    from pathlib import Path

    data = Path(__file__).resolve().parent.parent / "fixtures" / "weka" / "data" / "soybean.arff"
    result = run("gain", data, "-a", "c45", "--where", "leafspot-size=gt-1/8", "-f", "json")
    assert result.exit_code == 0, result.stderr
    note = json.loads(result.stdout)["path_note"]
    assert note.startswith("84 row(s) without a value of leafspot-size also reach this node in C4.5's tree")
    assert "the tree's own choice here may differ" in note
    weather = data.parent / "weather.nominal.arff"  # (no missing value: no note)
    quiet = run("gain", weather, "-a", "c45", "--where", "outlook=sunny", "-f", "json")
    assert json.loads(quiet.stdout)["path_note"] is None
