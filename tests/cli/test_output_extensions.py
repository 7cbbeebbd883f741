"""-o FILE's extension chooses the format (unless -f says it); contradictions and unwritable extensions are refused."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

from helpers import SAMPLES

WEATHER = SAMPLES / "weather.csv"


@pytest.fixture
def model(run, tmp_path):
    path = tmp_path / "m.json"
    assert run("train", WEATHER, "--ignore", "Day", "-q", "-o", path).exit_code == 0
    return path


def test_show_svg_by_extension_is_svg(run, model, tmp_path):
    out = tmp_path / "tree.svg"
    result = run("show", model, "-o", out)
    assert result.exit_code == 0, result.stderr
    root = ET.fromstring(out.read_bytes())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = " ".join(root.itertext())
    assert "Outlook" in texts and "Humidity" in texts


@pytest.mark.parametrize(
    ("name", "start"), [("tree.dot", "digraph"), ("tree.gv", "digraph"), ("tree.mmd", "---\ntitle:")]
)
def test_show_dot_and_mermaid_by_extension(run, model, tmp_path, name, start):
    out = tmp_path / name
    assert run("show", model, "-o", out).exit_code == 0
    assert out.read_text().startswith(start)
    assert "flowchart TD" in out.read_text() or start == "digraph"


def test_show_json_by_extension_is_the_model(run, model, tmp_path):
    out = tmp_path / "copy.json"
    assert run("show", model, "-o", out).exit_code == 0
    assert json.loads(out.read_text())["format"] == "dtree-model"


def test_rules_python_and_sql_by_extension(run, model, tmp_path):
    py, sql = tmp_path / "r.py", tmp_path / "r.sql"
    assert run("rules", model, "-o", py).exit_code == 0
    namespace: dict = {}
    exec(compile(py.read_text(), str(py), "exec"), namespace)
    assert namespace["predict"]({"Outlook": "Overcast", "Humidity": "High", "Wind": "Weak"}) == "Yes"
    assert run("rules", model, "-o", sql).exit_code == 0
    assert "CASE" in sql.read_text().upper()


def test_evaluate_and_predict_json_and_csv_by_extension(run, model, tmp_path):
    report = tmp_path / "r.json"
    assert run("evaluate", model, WEATHER, "-o", report).exit_code == 0
    assert json.loads(report.read_text())["format"] == "dtree-evaluation"
    per_class = tmp_path / "r.csv"
    assert run("evaluate", model, WEATHER, "-o", per_class).exit_code == 0
    assert len(list(csv.reader(io.StringIO(per_class.read_text())))) > 2
    predicted = tmp_path / "p.json"
    assert run("predict", model, WEATHER, "-o", predicted).exit_code == 0
    assert json.loads(predicted.read_text())["format"] == "dtree-predictions"


def test_diff_json_by_extension(run, model, tmp_path):
    out = tmp_path / "d.json"
    assert run("diff", model, model, "-o", out).exit_code == 0
    assert json.loads(out.read_text())["format"] == "dtree-diff"


def test_an_explicit_format_that_fits_wins(run, model, tmp_path):
    out = tmp_path / "tree.txt"
    assert run("show", model, "-f", "rich", "-o", out).exit_code == 0
    assert out.read_text().startswith("PlayTennis [9+, 5-]")


def test_an_unknown_extension_keeps_the_default(run, model, tmp_path):
    out = tmp_path / "tree.out"
    assert run("show", model, "-o", out).exit_code == 0
    assert out.read_text().startswith("PlayTennis [9+, 5-]")


def test_a_contradiction_is_refused(run, model, tmp_path):
    out = tmp_path / "tree.svg"
    result = run("show", model, "-f", "dot", "-o", out)
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: -f dot contradicts -o {out} (an SVG picture, which -f svg writes): give -f svg, "
        "or a file name that fits -f dot\n"
    )
    assert not out.exists()


def test_an_extension_the_command_cannot_write_is_refused(run, model, tmp_path):
    result = run("show", model, "-o", tmp_path / "tree.py")
    assert result.exit_code == 1
    assert result.stderr.startswith(f"Error: -o {tmp_path / 'tree.py'}: dtree show cannot write Python; it writes ")
    assert ".svg" in result.stderr and ".dot" in result.stderr and len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize("command", ["train", "prune"])
def test_a_model_output_named_as_a_picture_is_refused(run, model, tmp_path, command):
    args = ("train", WEATHER, "--ignore", "Day") if command == "train" else ("prune", model)
    result = run(*args, "-o", tmp_path / "tree.svg")
    assert result.exit_code == 1
    assert "writes the model, as JSON, not an SVG picture" in result.stderr
    assert "dtree show MODEL.json -o tree.svg" in result.stderr
    assert not (tmp_path / "tree.svg").exists()


def test_txt_is_text_of_any_kind(run, model, tmp_path):
    """.txt names no format in particular: predict keeps CSV, and an explicit -f is honoured."""
    out = tmp_path / "p.txt"
    assert run("predict", model, WEATHER, "-q", "-o", out).exit_code == 0
    assert out.read_text().splitlines()[0].endswith(",prediction")
    assert run("show", model, "-f", "json", "-o", tmp_path / "m.txt").exit_code == 0
    assert json.loads((tmp_path / "m.txt").read_text())["format"] == "dtree-model"


def test_predict_cannot_write_parquet_to_one_file(run, model, tmp_path):
    result = run("predict", model, WEATHER, "-o", tmp_path / "p.parquet")
    assert result.exit_code == 1
    assert "dtree predict cannot write Parquet; it writes .csv, .json files" in result.stderr
