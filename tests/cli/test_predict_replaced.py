"""``dtree predict`` on data that already has the columns it adds: each is replaced once, with a warning.

``prediction``, ``proba_<class>`` (with --proba) and ``path`` (with --explain) alike,
whatever the input (CSV small or streamed, Parquet) and whether the old column is
written in another Unicode normal form (one name, as everywhere). The reference:
the model is trained on the weather table, which it classifies without error, so
every row's prediction is its PlayTennis and its probability of that class 1.
"""

from __future__ import annotations

import csv
import io
import unicodedata

import pytest

from helpers import SAMPLES


@pytest.fixture
def model(run, tmp_path):
    path = tmp_path / "weather.json"
    assert run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", path).exit_code == 0
    return path


def _weather_with(extra: dict[str, str], repeat: int = 1) -> str:
    """The weather table with ``extra`` columns (name: the cell of every row) after its own."""
    lines = (SAMPLES / "weather.csv").read_text().splitlines()
    header = lines[0] + "".join("," + name for name in extra)
    rows = [line + "".join("," + cell for cell in extra.values()) for line in lines[1:]]
    return header + "\n" + "\n".join(rows * repeat) + "\n"


def _check(text: str, stderr: str, source: str, replaced: list[str]) -> None:
    rows = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)))
    assert header[-3:] == ["prediction", "proba_No", "proba_Yes"]
    assert len(header) == len(set(header)) == 9  # each name once: Day ... PlayTennis, then the three new ones
    assert all(r["prediction"] == r["PlayTennis"] and r[f"proba_{r['PlayTennis']}"] == "1" for r in rows)
    warnings = [line for line in stderr.splitlines() if line.startswith("Warning:")]
    assert warnings == [f"Warning: {source}: the existing {name!r} column is replaced" for name in replaced]


def test_proba_and_prediction_columns_are_replaced(run, model, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text(_weather_with({"proba_Yes": "0.5", "prediction": "?"}))
    result = run("predict", model, data, "--proba")
    assert result.exit_code == 0
    _check(result.stdout, result.stderr, str(data), ["prediction", "proba_Yes"])


def test_a_proba_column_in_another_normal_form_is_the_same_column(run, tmp_path):
    train = tmp_path / "t.csv"
    train.write_text("x,y\na,Café\na,Café\nb,no\nb,no\n")  # the class in NFC
    model = tmp_path / "m.json"
    assert run("train", train, "-q", "-o", model).exit_code == 0
    data = tmp_path / "d.csv"
    nfd = unicodedata.normalize("NFD", "proba_Café")
    data.write_text(f"x,{nfd}\na,0.5\nb,0.5\n")
    result = run("predict", model, data, "--proba")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == ["x,prediction,proba_Café,proba_no", "a,Café,1,0", "b,no,0,1"]
    assert result.stderr == f"Warning: {data}: the existing {nfd!r} column is replaced\n"


def test_a_large_file_takes_the_whole_file_path_and_replaces_too(run, model, tmp_path):
    data = tmp_path / "big.csv"
    data.write_text(_weather_with({"proba_No": "0.25"}, repeat=20_000))  # past the streamed reader's size
    assert data.stat().st_size > 1 << 20
    out = tmp_path / "out.csv"
    result = run("predict", model, data, "--proba", "-o", out)
    assert result.exit_code == 0
    _check(out.read_text(), result.stderr, str(data), ["proba_No"])


def test_parquet_data_with_a_proba_column(run, model, tmp_path):
    pv = pytest.importorskip("pyarrow.csv")
    pq = pytest.importorskip("pyarrow.parquet")
    plain = tmp_path / "d.csv"
    plain.write_text(_weather_with({"proba_Yes": "0.5"}))
    data = tmp_path / "d.parquet"
    pq.write_table(pv.read_csv(plain), data)
    out = tmp_path / "out.csv"
    result = run("predict", model, data, "--proba", "-o", out)
    assert result.exit_code == 0
    _check(out.read_text(), result.stderr, str(data), ["proba_Yes"])
