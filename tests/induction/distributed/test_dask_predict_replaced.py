"""``dtree predict --engine dask`` on data that has a ``prediction`` or ``proba_<class>`` column already:
replaced in every part, CSV and Parquet alike, with one warning for the run (as the local predict)."""

from __future__ import annotations

import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")
pytest.importorskip("pyarrow", reason="Parquet needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli
from helpers import SAMPLES


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_old_columns_are_replaced_once(client, tmp_path, fmt):
    model = tmp_path / "m.json"
    train = ["train", str(SAMPLES / "weather.csv"), "--ignore", "Day", "-q", "-o", str(model)]
    assert CliRunner().invoke(cli, train).exit_code == 0
    lines = (SAMPLES / "weather.csv").read_text().splitlines()
    data = tmp_path / "d.csv"
    data.write_text(lines[0] + ",proba_Yes,prediction\n" + "".join(line + ",0.5,x\n" for line in lines[1:]))
    out = tmp_path / "out"
    args = ["predict", str(model), str(data), "--engine", "dask", "--scheduler", client.scheduler.address]
    result = CliRunner().invoke(cli, [*args, "--proba", "-f", fmt, "-o", str(out)])
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if line.startswith("Warning:")]
    assert warned == [
        f"Warning: {data}: the existing 'prediction' column is replaced",
        f"Warning: {data}: the existing 'proba_Yes' column is replaced",
    ]
    (part,) = sorted(out.iterdir())
    if fmt == "parquet":
        import pyarrow.parquet as pq

        table = pq.read_table(part).to_pydict()
        names = list(table)
        rows = [dict(zip(names, cells)) for cells in zip(*table.values())]
    else:
        import csv

        names = part.read_text().splitlines()[0].split(",")
        rows = list(csv.DictReader(part.read_text().splitlines()))
    assert names[-3:] == ["prediction", "proba_No", "proba_Yes"] and len(names) == len(set(names)) == 9
    # the model classifies its training table without error: the prediction is the class, with probability 1
    assert all(r["prediction"] == r["PlayTennis"] and float(r[f"proba_{r['PlayTennis']}"]) == 1 for r in rows)
