"""Parquet input: the same table written as CSV and as Parquet (a file, a directory of parts) trains the same models.

The table is generated here with every kind of column (nominal with missing cells, integers and floats
with nulls and NaN, booleans, a class and a numeric target); the CSV file is the fact each Parquet
input is checked against: the model files must be byte-identical but for the data's fingerprint,
which must be the SHA-256 of the Parquet bytes (of the parts one after the other for a directory).
"""

from __future__ import annotations

import hashlib
import json
import math
import random

import pytest

pa = pytest.importorskip("pyarrow", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")
pq = pytest.importorskip("pyarrow.parquet", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")

ROWS = 240
PART_ENDS = (70, 150, ROWS)  # three parts of unequal size


def table_columns(seed: int = 7) -> dict[str, list]:
    """Columns as Python values, None missing (float("nan") too, in the float column)."""
    rng = random.Random(seed)
    color = [rng.choice(["red", "green", "blue", None]) for _ in range(ROWS)]
    size = [rng.choice(["small", "large", "huge"]) for _ in range(ROWS)]
    count = [None if rng.random() < 0.1 else rng.randrange(-5, 40) for _ in range(ROWS)]
    weight = [rng.choice([None, math.nan]) if rng.random() < 0.1 else round(rng.uniform(-3, 9), 3) for _ in range(ROWS)]
    flag = [None if rng.random() < 0.05 else rng.random() < 0.4 for _ in range(ROWS)]
    label = []
    for c, s, n, w in zip(color, size, count, weight):
        score = (c == "red") + (s == "huge") + ((n or 0) > 20) + (w is not None and w == w and w > 4)
        label.append("yes" if score + (rng.random() < 0.15) >= 2 else "no")
    y = [round((n or 0) * 0.5 + (2.0 if c == "blue" else 0.0) + rng.uniform(0, 1), 4) for c, n in zip(color, count)]
    return {"color": color, "size": size, "count": count, "weight": weight, "flag": flag, "label": label, "y": y}


def csv_cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"  # pyarrow's text for a bool, which dtree reads as nominal
    return repr(value) if isinstance(value, float) else str(value)


def write_csv(path, columns: dict) -> None:
    names = list(columns)
    lines = [",".join(names)] + [",".join(csv_cell(columns[n][i]) for n in names) for i in range(ROWS)]
    path.write_text("\n".join(lines) + "\n")


def arrow_table(columns: dict, rows: slice = slice(None), dictionary: bool = False):
    """A pyarrow Table of the rows; with ``dictionary``, the nominal columns dictionary-encoded."""
    arrays = {}
    for name, values in columns.items():
        part = values[rows]
        if name == "weight":  # NaN and null both: pandas-written files hold either
            arrays[name] = pa.array(part, pa.float64(), from_pandas=False)
        elif name == "count":
            arrays[name] = pa.array(part, pa.int64() if all(v is not None for v in part) else pa.int32())
        else:
            arrays[name] = pa.array(part)
        if dictionary and name in ("color", "size"):
            arrays[name] = arrays[name].dictionary_encode()
    return pa.table(arrays)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """The same table as ``csv/data`` (CSV), ``pq/data`` (one Parquet file, found by its PAR1 mark),
    ``named/data.parquet`` and ``parts/data`` (a directory of three parts); and their SHA-256s."""
    root = tmp_path_factory.mktemp("parquet")
    columns = table_columns()
    for folder in ("csv", "pq", "named", "parts/data"):
        (root / folder).mkdir(parents=True)
    write_csv(root / "csv" / "data", columns)
    pq.write_table(arrow_table(columns), root / "pq" / "data")
    pq.write_table(arrow_table(columns, dictionary=True), root / "named" / "data.parquet")
    start, parts = 0, []
    for i, end in enumerate(PART_ENDS):
        part = root / "parts" / "data" / f"part-{i}.parquet"
        pq.write_table(arrow_table(columns, slice(start, end), dictionary=i == 1), part)
        parts.append(part.read_bytes())
        start = end
    (root / "parts" / "data" / "_SUCCESS").write_text("")  # as Spark leaves it: not a part
    digests = {
        "csv/data": hashlib.sha256((root / "csv" / "data").read_bytes()).hexdigest(),
        "pq/data": hashlib.sha256((root / "pq" / "data").read_bytes()).hexdigest(),
        "named/data.parquet": hashlib.sha256((root / "named" / "data.parquet").read_bytes()).hexdigest(),
        "parts/data": hashlib.sha256(b"".join(parts)).hexdigest(),
    }
    return root, digests


TRAININGS = {
    "c45": ("-a", "c45", "--target", "label", "--ignore", "y"),
    "cart": ("-a", "cart", "--target", "label", "--ignore", "y"),
    "regression": ("-a", "cart", "--task", "regression", "--target", "y", "--ignore", "label"),
    "nominal-count": ("-a", "c45", "--target", "label", "--ignore", "y", "--nominal", "count"),
    "count-as-class": ("-a", "c45", "--task", "classification", "--target", "count", "--ignore", "y,label"),
}


def train(run, data, out, args) -> str:
    result = run("train", data, *args, "-q", "-o", out)
    assert result.exit_code == 0, result.stderr
    return out.read_text()


@pytest.mark.parametrize("training", list(TRAININGS))
@pytest.mark.parametrize("parquet", ["pq/data", "named/data.parquet", "parts/data"])
def test_parquet_trains_the_model_csv_trains(run, inputs, tmp_path, training, parquet):
    root, digests = inputs
    expected = train(run, root / "csv" / "data", tmp_path / "csv.json", TRAININGS[training])
    got = train(run, root / parquet, tmp_path / "pq.json", TRAININGS[training])
    expected = expected.replace(digests["csv/data"], digests[parquet])
    if parquet == "named/data.parquet":
        expected = expected.replace('"source": "data"', '"source": "data.parquet"')
    assert got == expected
    assert json.loads(got)["training_data"]["sha256"] == digests[parquet]


def test_model_records_the_kinds_the_parquet_types_give(run, inputs, tmp_path):
    root, _ = inputs
    model = json.loads(train(run, root / "parts" / "data", tmp_path / "m.json", TRAININGS["c45"]))
    attributes = {a["name"]: a for a in model["schema"]["attributes"]}
    columns = table_columns()
    first = list(dict.fromkeys(c for c in columns["color"] if c is not None))
    assert attributes["color"]["values"] == first  # order of first appearance, across the parts
    flags = list(dict.fromkeys("true" if f else "false" for f in columns["flag"] if f is not None))
    assert attributes["flag"] == {"kind": "nominal", "name": "flag", "values": flags}
    assert attributes["count"]["kind"] == attributes["weight"]["kind"] == "numeric"
    assert model["training_data"] == {"rows": ROWS, "sha256": model["training_data"]["sha256"], "source": "data"}


@pytest.mark.parametrize("parquet", ["pq/data", "parts/data"])
def test_parquet_predicts_as_csv_does(run, inputs, tmp_path, parquet):
    root, _ = inputs
    model = tmp_path / "m.json"
    train(run, root / "csv" / "data", model, TRAININGS["c45"])
    expected = run("predict", model, root / "csv" / "data", "-f", "json", "--proba", "-q")
    got = run("predict", model, root / parquet, "-f", "json", "--proba", "-q")
    assert got.exit_code == expected.exit_code == 0, got.stderr
    assert got.stdout == expected.stdout
    csv_out, pq_out = tmp_path / "csv.csv", tmp_path / "pq.csv"
    assert run("predict", model, root / "csv" / "data", "-o", csv_out, "-q").exit_code == 0
    assert run("predict", model, root / parquet, "-o", pq_out, "-q").exit_code == 0
    last = [line.rsplit(",", 1)[1] for line in csv_out.read_text().splitlines()]
    assert [line.rsplit(",", 1)[1] for line in pq_out.read_text().splitlines()] == last


def test_nulls_and_nan_are_missing_and_strings_stay_nominal(tmp_path):
    from dtcli.io.encode import infer_table
    from dtcli.io.read import read_data
    from dtcli.model.table import MISSING

    path = tmp_path / "t.parquet"
    table = {
        "code": ["007", "12", None, " 12", "?", ""],  # numbers as strings: nominal, as the schema says
        "x": pa.array([1.5, None, float("nan"), 2.0, 3.0, None]),
        "n": pa.array([None, 1, 2, 3, None, 4], pa.int8()),
        "none": pa.nulls(6),
        "c": ["a", "b", "a", "b", "a", "b"],
    }
    pq.write_table(pa.table(table), path)
    got = infer_table(read_data(str(path)), "c")
    attributes = {a.name: a for a in got.schema.attributes}
    assert attributes["code"].values == ("007", "12")
    assert got.columns[0].tolist() == [0, 1, MISSING, 1, MISSING, MISSING]
    assert [v if v == v else None for v in got.columns[1].tolist()] == [1.5, None, None, 2.0, 3.0, None]
    assert [v if v == v else None for v in got.columns[2].tolist()] == [None, 1.0, 2.0, 3.0, None, 4.0]
    assert attributes["none"].values == () and got.columns[3].tolist() == [MISSING] * 6  # as an empty CSV column
    assert got.source == str(path) and got.lines is None


def commands(model, data):
    """Commands that read DATA (beside train and predict), each as its arguments."""
    return {
        "gain": ("gain", data, "--target", "label", "--ignore", "y"),
        "evaluate": ("evaluate", model, data),
        "cross-validation": ("evaluate", data, "-a", "c45", "--target", "label", "--ignore", "y"),
        "prune": ("prune", model, "--method", "reduced-error", "--validation", data),
        "rules": ("rules", model, "--prune", "--data", data),
        "diff": ("diff", model, model, "--data", data),
    }


@pytest.mark.parametrize("command", list(commands("", "")))
def test_every_command_reads_parquet_as_csv(run, inputs, tmp_path, command):
    root, _ = inputs
    model = tmp_path / "m.json"
    train(run, root / "csv" / "data", model, TRAININGS["c45"])
    csv_data, parquet = root / "csv" / "data", root / "parts" / "data"
    expected = run(*commands(model, csv_data)[command])
    got = run(*commands(model, parquet)[command])
    assert expected.exit_code == got.exit_code == 0, got.stderr
    assert got.stdout.replace(str(parquet), "DATA") == expected.stdout.replace(str(csv_data), "DATA")
    assert got.stderr.replace(str(parquet), "DATA") == expected.stderr.replace(str(csv_data), "DATA")


def test_format_in_overrides_the_name_and_the_mark(run, inputs):
    root, _ = inputs
    forced = run("gain", root / "csv" / "data", "--format-in", "parquet")
    assert forced.exit_code == 1
    assert forced.stderr.startswith(
        f"Error: {root / 'csv' / 'data'}: not a readable Parquet file (no PAR1 mark at its start"
    )
    as_csv = run("gain", root / "pq" / "data", "--format-in", "csv")
    assert as_csv.exit_code == 1 and "a NUL byte (0x00), so not a text file" in as_csv.stderr
