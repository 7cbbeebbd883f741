"""Extreme numbers through every command: inputs that used to hang, crash or give unreadable models now work.

Each case was a report of issue 15: a column of only inf/-inf (C4.5 and ID3 with midpoint
thresholds hung), values near +-1.8e308 (C4.5 and CART -m 1 hung), 400-digit integers,
-inf among ordinary numbers (an OverflowError printing the tree), gain --thresholds-all on an
inf column (a traceback), and CART on a column with inf (a threshold of -Infinity that
predict refused). The expected thresholds follow the documented rules (criteria/midpoint.py).
"""

from __future__ import annotations

import csv
import io
import json

import pytest

BIG = "1" * 400

TABLES = {
    "inf-only": ["inf", "-inf"] * 4,
    "inf-among-numbers": ["1", "2", "-inf", "3", "inf", "4", "5", "6"],
    "huge": ["1.7e308", "-1.7e308", "1.75e308", "-1.75e308", "1.6e308", "1e308", "-1e308", "1.1e308"],
    "400-digits": [BIG, "1", "2" + "0" * 399, "3", BIG, "4", "-" + BIG, "5"],
    "beyond-range": ["1e400", "1", "-1e400", "2", "3", "4", "5e-324", "1e-310"],
}
RUNS = {
    "id3-midpoint": ["-a", "id3", "--thresholds", "midpoint"],
    "c45": ["-a", "c45"],
    "c45-m1": ["-a", "c45", "-m", "1"],
    "cart-m1": ["-a", "cart", "-m", "1"],
    "cart-column": ["-a", "cart", "--ties", "column"],
}


def write(path, cells):
    labels = ["a", "b"] * (len(cells) // 2)
    path.write_text("x,y\n" + "".join(f"{x},{y}\n" for x, y in zip(cells, labels)))


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("options", sorted(RUNS))
def test_train_predict_prune_rules_on_extreme_columns(run, tmp_path, table, options):
    data, model = tmp_path / "d.csv", tmp_path / "m.json"
    write(data, TABLES[table])
    result = run("train", data, *RUNS[options], "-o", model, "-f", "text")
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.stderr and "Warning" not in result.stderr
    json.loads(model.read_text(), parse_constant=pytest.fail)  # strict JSON: no Infinity, no NaN
    predicted = run("predict", model, data, "-q")
    assert predicted.exit_code == 0, predicted.stderr
    rows = list(csv.DictReader(io.StringIO(predicted.stdout)))
    assert len(rows) == len(TABLES[table])
    for args in (["rules", model], ["prune", model, "--ccp-alpha", "0.01", "-q"]):
        assert run(*args).exit_code == 0


def test_thresholds_between_infinite_and_huge_values(run, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("x,y\n-inf,a\n5,b\ninf,a\n")
    tree = run("train", data, "-a", "cart", "--ties", "column", "-f", "text").stdout
    assert "x <= -1.7976931348623157E308" in tree and "x <= 5" in tree  # -inf | 5 and 5 | inf
    data.write_text("x,y\n1.7e308,a\n1.75e308,b\n")
    tree = run("train", data, "-a", "id3", "--thresholds", "midpoint", "-f", "text").stdout
    assert tree.startswith("x <= 1.725E308")  # the midpoint, without overflow


def test_gain_lists_every_cut_of_an_infinite_column(run, tmp_path):
    data = tmp_path / "d.csv"
    write(data, TABLES["inf-only"])
    result = run("gain", data, "--thresholds-all")
    assert result.exit_code == 0, result.stderr
    assert "-1.7976931348623157E308 | 1.7976931348623157E308" in result.stdout
    as_json = run("gain", data, "--thresholds-all", "-f", "json")
    document = json.loads(as_json.stdout, parse_constant=pytest.fail)
    assert document["attributes"][0]["threshold"] == -1.7976931348623157e308


def test_nan_in_a_numeric_column_is_missing(run, tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("x,y\n1,a\nnan,b\n2,a\nNaN,b\n3,b\n")
    result = run("gain", data, "-f", "json")
    assert json.loads(result.stdout)["attributes"][0]["missing"] == 2.0
