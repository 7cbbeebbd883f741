"""Every command that reads DATA reads a spreadsheet's export (; and decimal commas, tab, sep= line)
as it reads the same table written as plain comma CSV: the comma file's output is the reference."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from dtcli.io.csv.dialect import detect
from helpers import FIXTURES, SAMPLES

IRIS = SAMPLES / "iris.csv"
DIGEST = re.compile(r'"sha256": "[0-9a-f]{64}"')  # the data file's fingerprint, in models and documents


@pytest.fixture
def files(tmp_path, monkeypatch):
    """plain.csv (sample_data's iris), europe.csv (; and decimal commas), excel.csv (the same
    with a sep=; first line and CRLF line ends), tabs.tsv (tabs and decimal commas)."""
    monkeypatch.chdir(tmp_path)
    frame = pd.read_csv(IRIS)
    frame.to_csv("plain.csv", index=False)
    frame.to_csv("europe.csv", index=False, sep=";", decimal=",")
    frame.to_csv("tabs.tsv", index=False, sep="\t", decimal=",")
    with open("excel.csv", "w", newline="") as handle:
        handle.write("sep=;\r\n")
        frame.to_csv(handle, index=False, sep=";", decimal=",", lineterminator="\r\n")
    assert "5,1;3,5;1,4;0,2" in Path("europe.csv").read_text()
    return ["europe.csv", "excel.csv", "tabs.tsv"]


def same_run(run, args: list, reference: str, other: str):
    """The two runs (both exit 0, no warning) print the same, but for the file's name and fingerprint."""
    done = [run(*[reference if a == "DATA" else a for a in args]), run(*[other if a == "DATA" else a for a in args])]
    for result in done:
        assert result.exit_code == 0, result.stderr
        assert result.stderr == "" or "Warning" not in result.stderr
    assert DIGEST.sub("", done[1].stdout.replace(other, reference)) == DIGEST.sub("", done[0].stdout)
    return done


@pytest.mark.parametrize(
    "args",
    [
        ["train", "DATA", "-a", "c45", "-f", "text"],
        ["train", "DATA", "-a", "cart", "-f", "json"],
        ["train", "DATA", "-a", "id3", "--thresholds", "midpoint", "-f", "text"],
        ["gain", "DATA"],
        ["gain", "DATA", "-f", "json"],
        ["gain", "DATA", "--where", "petallength > 2.45"],
    ],
    ids=["c45", "cart-json", "id3", "gain", "gain-json", "gain-where"],
)
def test_training_commands_read_the_export_as_the_comma_file(run, files, args):
    for other in files:
        same_run(run, args, "plain.csv", other)


def test_model_commands_read_the_export_as_the_comma_file(run, files):
    assert run("train", "plain.csv", "-a", "c45", "-o", "m.json").exit_code == 0
    for other in files:
        assert run("train", other, "-a", "c45", "-o", "e.json").exit_code == 0
        trained, reference = (json.loads(Path(name).read_text()) for name in ("e.json", "m.json"))
        assert trained["root"] == reference["root"] and trained["schema"] == reference["schema"]
        same_run(run, ["evaluate", "m.json", "DATA"], "plain.csv", other)
        same_run(run, ["predict", "m.json", "DATA", "-f", "json", "--proba"], "plain.csv", other)
        same_run(run, ["predict", "e.json", "DATA", "-f", "text"], "plain.csv", other)  # the very file it trained on
        same_run(
            run, ["prune", "m.json", "--method", "pessimistic", "--data", "DATA", "-f", "text"], "plain.csv", other
        )
        same_run(run, ["rules", "m.json", "--prune", "--data", "DATA"], "plain.csv", other)
        same_run(run, ["prune", "m.json", "--method", "reduced-error", "--validation", "DATA"], "plain.csv", other)
        same_run(run, ["diff", "m.json", "m.json", "--data", "DATA"], "plain.csv", other)


def test_predict_echoes_the_rows_as_written(run, files):
    assert run("train", "europe.csv", "-a", "c45", "-o", "e.json").exit_code == 0
    done = run("predict", "e.json", "europe.csv")
    lines = done.stdout.splitlines()
    assert lines[0] == "sepallength;sepalwidth;petallength;petalwidth;class;prediction"
    assert lines[1] == "5,1;3,5;1,4;0,2;Iris-setosa;Iris-setosa"


def test_predicted_numbers_take_the_files_decimal_mark_and_read_back(run, files):
    assert run("train", "europe.csv", "-a", "c45", "-q", "-o", "e.json").exit_code == 0
    assert run("predict", "e.json", "europe.csv", "--proba", "-q", "-o", "out.csv").exit_code == 0
    lines = Path("out.csv").read_text().splitlines()
    row = next(line for line in lines if "Iris-versicolor;Iris-virginica;" in line)
    assert re.fullmatch(r"[0-9,;]+;Iris-versicolor;Iris-virginica;0;0,\d+;0,\d+", row), row
    again = run("evaluate", "e.json", "out.csv", "-f", "json")
    assert again.exit_code == 0 and json.loads(again.stdout)["summary"]["correct"] == 147
    frame = pd.read_csv(IRIS).rename(columns={"class": "width"})  # a numeric target: a regression tree
    frame["width"] = frame["petalwidth"] * 1.5 + 0.05
    frame.drop(columns=["petalwidth"]).to_csv("reg.csv", index=False, sep=";", decimal=",")
    assert run("train", "reg.csv", "-a", "cart", "--max-depth", "2", "-q", "-o", "r.json").exit_code == 0
    assert run("predict", "r.json", "reg.csv", "-q", "-o", "r_out.csv").exit_code == 0
    predicted = [line.rsplit(";", 1)[1] for line in Path("r_out.csv").read_text().splitlines()[1:]]
    assert all("." not in cell for cell in predicted) and any("," in cell for cell in predicted)
    assert run("evaluate", "r.json", "r_out.csv").exit_code == 0


def test_quoted_header_with_a_comma_in_a_semicolon_file(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = ["12,5;30;yes", "40,25;45;no", "13;22;yes", "55,5;50;no"]
    (tmp_path / "q.csv").write_text('"Income (k, net)";"Age";"Buys"\n' + "\n".join(rows) + "\n")
    (tmp_path / "p.csv").write_text(
        '"Income (k, net)",Age,Buys\n' + "\n".join(r.replace(",", ".").replace(";", ",") for r in rows) + "\n"
    )
    same_run(run, ["gain", "DATA", "-f", "json"], "p.csv", "q.csv")
    same_run(run, ["train", "DATA", "-a", "c45", "-f", "text"], "p.csv", "q.csv")


def test_ambiguous_separator_says_what_was_assumed(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.csv").write_text("x,y;z\n1,2;a\n3,4;b\n5,6;a\n")
    done = run("gain", "a.csv", "--thresholds", "midpoint")  # (midpoints named: no note on ID3's numeric cuts)
    assert done.exit_code == 0
    assert done.stderr == (
        "Warning: a.csv: read as separated by ',', but ';' also splits every line into as many fields; "
        "give --sep ';' if that is the separator\n"
    )
    done = run("gain", "a.csv", "--sep", ";", "-f", "json", "--thresholds", "midpoint")
    assert done.stderr == "" and json.loads(done.stdout)["target"] == "z"


def test_options_override_detection(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.txt").write_text("x|y\n1,5|a\n2,5|b\n3,5|a\n")
    (tmp_path / "r.csv").write_text("x,y\n1.5,a\n2.5,b\n3.5,a\n")
    same_run(run, ["gain", "DATA", "-f", "json"], "r.csv", "p.txt")
    given = run("gain", "p.txt", "-f", "json", "--sep", "|", "--decimal", ",", "--thresholds", "midpoint")
    assert given.stderr == "" and given.stdout == run("gain", "r.csv", "-f", "json").stdout.replace("r.csv", "p.txt")
    done = run("gain", "p.txt", "--decimal", ".", "-f", "json")
    assert done.exit_code == 0 and '"1,5"' in done.stdout  # read as text, as told
    done = run("gain", "p.txt", "--sep", "tab")
    assert done.exit_code == 1
    assert done.stderr == (
        "Error: p.txt: --sep tab does not split the header line into columns; the file seems separated by '|': "
        "give --sep '|', or leave --sep out\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sep", ";;"], "Error: --sep ';;': give one character (such as ; or |), or tab; not a quote or line end\n"),
        (["--sep", ",", "--decimal", ","], "Error: --sep and --decimal are both ','; the separator and the decimal "
                                           "mark must differ\n"),
    ],
)  # fmt: skip
def test_bad_option_values(run, files, args, message):
    done = run("gain", "europe.csv", *args)
    assert done.exit_code == 1 and done.stderr.endswith(message)


def test_point_in_a_decimal_comma_file(run, files):
    """Among the sampled rows: a warning, and the columns of both kinds text; told --decimal ,: an
    error naming the line, on every command."""
    text = Path("europe.csv").read_text().replace("6,3;2,5;5,0;1,9", "6,3;2.5;5,0;1,9")
    line = 1 + text.splitlines().index("6,3;2.5;5,0;1,9;Iris-virginica")
    Path("bad.csv").write_text(text)
    done = run("gain", "bad.csv", "-f", "json")
    assert done.exit_code == 0
    assert done.stderr == (
        "Warning: bad.csv: some numbers have a decimal comma (5,1), others a decimal point (2.5): read with '.' as "
        "the decimal mark, so those with a comma are text; give --decimal , to read commas (a point is then "
        "refused)\n"
    )
    assert run("train", "europe.csv", "-a", "c45", "-o", "e.json").exit_code == 0
    for args in (
        ["train", "bad.csv"],
        ["gain", "bad.csv"],
        ["predict", "e.json", "bad.csv"],
        ["evaluate", "e.json", "bad.csv"],
    ):
        done = run(*args, "--decimal", ",")
        assert done.exit_code == 1
        assert done.stderr == (
            f"Error: bad.csv, line {line}: '2.5' is written with a point, but this file's decimal mark is ',' (5,1); "
            "a point grouping thousands (1.234,5) is not read: write the number without grouping, or give "
            "--decimal . if the point is the decimal mark\n"
        )


def test_plain_files_are_read_as_before():
    """The samples and CSV fixtures are clear: detection says nothing and changes nothing."""
    paths = sorted(SAMPLES.glob("*.csv")) + sorted(FIXTURES.rglob("*.csv"))
    assert len(paths) > 5
    for path in paths:
        data = path.read_bytes()
        dialect = detect(data, str(path), path.name)
        assert dialect.plain, path
        first = data.split(b"\n", 1)[0].decode()
        assert dialect.sep == next((s for s in (",", "\t", ";", "|") if s in first), ","), path


@pytest.mark.parametrize("decimal", [".", ","])
def test_predict_to_a_file_reads_a_large_export_as_the_comma_file(run, tmp_path, monkeypatch, decimal):
    """Past 1 MiB, predict -o reads a plain file a chunk at a time (csv_chunks): a ; file so; one
    with decimal commas whole. Both give the comma file's predictions, rows echoed as written."""
    monkeypatch.chdir(tmp_path)
    frame = pd.concat([pd.read_csv(IRIS)] * 250, ignore_index=True)
    frame.to_csv("plain.csv", index=False)
    frame.to_csv("semi.csv", index=False, sep=";", decimal=decimal)
    assert Path("semi.csv").stat().st_size > 1 << 20
    assert run("train", "plain.csv", "-a", "c45", "-o", "m.json").exit_code == 0
    for name in ("plain.csv", "semi.csv"):
        done = run("predict", "m.json", name, "-o", f"{name}.out")
        assert done.exit_code == 0 and "Warning" not in done.stderr
    written = Path("semi.csv.out").read_text()
    assert written.splitlines()[1] == ("5.1;3.5;1.4;0.2;Iris-setosa;Iris-setosa").replace(".", decimal)
    assert written.replace(",", ".").replace(";", ",") == Path("plain.csv.out").read_text()
