"""``dtree show`` and ``--show`` on train and prune: the same tree in every format, files written whole."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from helpers import SAMPLES

WEATHER = str(SAMPLES / "weather.csv")


@pytest.fixture
def model(run, tmp_path):
    path = tmp_path / "weather.json"
    assert run("train", WEATHER, "--ignore", "Day", "-q", "-o", path).exit_code == 0
    return path


@pytest.mark.parametrize("fmt", ["text", "rich", "json"])
def test_show_prints_what_train_printed(run, model, fmt):
    trained = run("train", WEATHER, "--ignore", "Day", "-f", fmt).stdout
    assert run("show", model, "-f", fmt).stdout == trained
    if fmt == "json":
        assert trained == model.read_text()


@pytest.mark.parametrize("fmt", ["dot", "svg", "mermaid"])
def test_train_and_prune_show_print_what_show_draws(run, model, tmp_path, fmt):
    drawn = run("show", model, "-f", fmt)
    assert drawn.exit_code == 0 and drawn.stderr == ""
    trained = run("train", WEATHER, "--ignore", "Day", "--show", fmt, "-o", tmp_path / "again.json")
    assert trained.stdout == drawn.stdout
    assert (tmp_path / "again.json").read_text() == model.read_text()  # the model file stays JSON
    pruned = run("prune", model, "--ccp-alpha", "0", "--show", fmt)
    assert pruned.exit_code == 0 and pruned.stdout == drawn.stdout  # alpha 0 prunes nothing here


@pytest.mark.parametrize("fmt", ["svg", "dot", "mermaid", "text", "rich", "json"])
def test_output_file_holds_what_standard_output_shows(run, model, tmp_path, fmt):
    out = tmp_path / f"tree.{fmt}"
    done = run("show", model, "-f", fmt, "-o", out)
    assert done.exit_code == 0 and done.stdout == ""
    assert out.read_text() == run("show", model, "-f", fmt).stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["weather.json", out.name])  # no temp file left


def test_svg_of_iris_is_a_picture_of_the_c45_tree(run, tmp_path):
    path = tmp_path / "iris.json"
    assert run("train", SAMPLES / "iris.csv", "-a", "c45", "-q", "-o", path).exit_code == 0
    root = ET.fromstring(run("show", path, "-f", "svg").stdout.encode())
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert texts[0] == "C4.5 tree for class: 5 leaves, 9 nodes, depth 4"
    assert {"Iris-setosa", "Iris-versicolor", "Iris-virginica", "<= 0.6", "> 1.7"} <= set(texts)


def test_max_depth_cuts_the_picture_and_says_so(run, model):
    done = run("show", model, "-f", "dot", "--max-depth", "1")
    assert done.stdout.count(" -> ") == 3 and done.stdout.count("dashed") == 2
    assert done.stderr == (
        "Note: the picture shows the top 1 of 2 levels (4 of 8 nodes; dashed boxes are cut); "
        "the model file has them all\n"
    )
    text = run("show", model, "-f", "text", "--max-depth", "1").stdout
    assert text.splitlines()[1] == "|   ... 1 more level, 2 nodes, not shown (the model file has them)"


def test_a_large_picture_gets_a_note_with_the_depth_to_ask_for(run, tmp_path):
    from trees import chain

    from dtcli.model.format.model import dumps_model

    path = tmp_path / "deep.json"
    path.write_text(dumps_model(chain(400)))
    done = run("show", path, "-f", "svg", "-o", tmp_path / "deep.svg")
    assert done.exit_code == 0
    assert done.stderr.startswith("Note: the picture has 801 nodes and 400 levels, too many to read easily; ")
    assert done.stderr.endswith(f"draw the top levels with dtree show {path} --max-depth 149\n")  # 2d + 1 <= 300 boxes
    assert ET.parse(tmp_path / "deep.svg").getroot().tag == "{http://www.w3.org/2000/svg}svg"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--max-depth", "-1"], "Error: --max-depth must be 0 or more (0 draws the root only)\n"),
        (
            ["-f", "json", "--max-depth", "2"],
            "Error: --max-depth cuts pictures and printouts; -f json writes the whole model\n",
        ),  # fmt: skip
    ],
)
def test_bad_options_are_one_line_errors(run, model, args, message):
    done = run("show", model, *args)
    assert (done.exit_code, done.stdout, done.stderr) == (1, "", message)


def test_quiet_and_show_contradict(run):
    done = run("train", WEATHER, "--ignore", "Day", "-q", "--show", "svg")
    assert (
        done.exit_code == 1 and done.stderr == "Error: -q prints no tree and --show svg prints one: give one of them\n"
    )
