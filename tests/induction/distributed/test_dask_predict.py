"""``dtree predict --engine dask`` on a real local cluster: the parts, in order, are the local predict's output."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")
pytest.importorskip("pyarrow", reason="Parquet needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli


def _lines(n: int, seed: int) -> list[str]:
    """Rows of numeric, nominal and missing cells (a value the model never saw among them)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    c = rng.choice(["red", "green", "blue", "?", "mauve"], n, p=[0.3, 0.3, 0.3, 0.05, 0.05])
    d = rng.exponential(2, n).round(2)
    y = np.where((a > 0.2) & (c != "blue") | (d > 3), "yes", "no")
    return [f"{a[i]},{c[i]},{d[i]},{y[i]}" for i in range(n)]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A model, the whole table as one CSV file, and the local predict's output of it."""
    folder = tmp_path_factory.mktemp("predict")
    rows = _lines(1500, seed=7)
    train = folder / "train.csv"
    train.write_text("a,c,d,class\n" + "\n".join(r for r in rows if ",mauve," not in r) + "\n")
    model = folder / "m.json"
    assert CliRunner().invoke(cli, ["train", str(train), "-a", "c45", "-q", "-o", str(model)]).exit_code == 0
    whole = folder / "whole.csv"
    whole.write_text("a,c,d,class\n" + "\n".join(rows) + "\n")
    local = folder / "local.csv"
    args = ["predict", str(model), str(whole), "--proba", "-q", "-o", str(local)]
    assert CliRunner().invoke(cli, args).exit_code == 0
    return folder, str(model), rows, local.read_text()


def _predict(client, model: str, data: str, out, *more) -> str:
    args = ["predict", model, data, "--engine", "dask", "--scheduler", client.scheduler.address, "-o", str(out)]
    result = CliRunner().invoke(cli, [*args, *more])
    assert result.exit_code == 0, result.output
    return result.output


def _joined(out, n: int) -> str:
    """The CSV parts in order as one file (the header once)."""
    names = sorted(p.name for p in out.iterdir())
    assert names == [f"part-{i:05d}.csv" for i in range(n)]  # no temporary file left
    texts = [(out / name).read_text() for name in names]
    return texts[0] + "".join(text.split("\n", 1)[1] for text in texts[1:])


def test_a_csv_glob_predicts_what_the_local_predict_writes(client, made, tmp_path):
    folder, model, rows, local = made
    for i, start in enumerate(range(0, len(rows), 500)):  # three files: three partitions
        (tmp_path / f"in-{i}.csv").write_text("a,c,d,class\n" + "\n".join(rows[start : start + 500]) + "\n")
    said = _predict(client, model, str(tmp_path / "in-*.csv"), tmp_path / "out", "--proba")
    assert "1,500 row(s) predicted into 3 part(s)" in said and "never seen in training" in said
    assert _joined(tmp_path / "out", 3) == local


def test_parquet_parts_predict_what_the_local_predict_writes_of_them(client, made, tmp_path):
    import pyarrow.csv as pv
    import pyarrow.parquet as pq

    folder, model, rows, _ = made
    table = pv.read_csv(folder / "whole.csv")
    parts = tmp_path / "parts"
    parts.mkdir()
    for i, start in enumerate(range(0, table.num_rows, 600)):
        pq.write_table(table.slice(start, 600), parts / f"part-{i:05d}.parquet")
    local = tmp_path / "local.csv"
    assert CliRunner().invoke(cli, ["predict", model, str(parts), "-q", "-o", str(local)]).exit_code == 0
    _predict(client, model, str(parts), tmp_path / "out")
    assert _joined(tmp_path / "out", 3) == local.read_text()
    _predict(client, model, str(parts), tmp_path / "pq", "-f", "parquet", "--proba")
    back = pq.read_table(sorted((tmp_path / "pq").iterdir())).to_pydict()
    expected = [line.split(",")[4] for line in local.read_text().splitlines()[1:]]
    assert back["prediction"] == expected and back["a"] == table.column("a").to_pylist()
    assert np.allclose(np.array(back["proba_no"]) + np.array(back["proba_yes"]), 1)


def test_errors_are_one_line(client, made, tmp_path):
    folder, model, _, _ = made
    data = str(folder / "whole.csv")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    cases = [
        (["--engine", "dask"], "give -o OUTDIR"),
        (["--engine", "dask", "-o", str(tmp_path / "full")], "is a directory that is not empty"),
        (["--engine", "dask", "-o", str(tmp_path / "o"), "-f", "json"], "give -f csv or -f parquet"),
        (["-o", str(tmp_path / "o"), "-f", "parquet"], "with --engine dask -o OUTDIR"),
        (["--engine", "dask", "-o", str(tmp_path / "o"), "--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler"),
    ]
    for more, message in cases:
        result = CliRunner().invoke(cli, ["predict", model, data, *more])
        assert result.exit_code == 1 and message in result.output, (more, result.output)
        assert result.output.count("\n") == 1, result.output
    assert not (tmp_path / "o").exists()
