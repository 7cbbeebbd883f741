"""CART on the Dask engine (a real LocalCluster) writes the local binned engines' model file, byte for byte."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from click.testing import CliRunner

from dtcli.cli import cli
from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.distributed.cart import grow_cart_dask
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.quantiles import numeric_bins
from dtcli.induction.distributed.train import tree_of
from dtcli.induction.params import PruneParams
from dtcli.io.dask.frames import load
from dtcli.model.format.model import dumps_model
from dtcli.pipeline.load import load_training_table

MANY = [f"v{j:02d}" for j in range(14)]  # more values than CART's exhaustive subset search takes


def _write(path, n: int, seed: int, missing: float, n_classes: int = 3) -> str:
    """Numbers of many and of few distinct values, a nominal attribute of 4 values and one of 14,
    each cell missing (``?``) with probability ``missing``; ``n_classes`` noisy classes."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 9, n)
    c = rng.choice(["red", "green", "blue", "teal"], n)
    e = rng.choice(MANY, n)
    d = rng.exponential(2, n).round(2)
    score = (a > 0.2).astype(int) + (c == "blue") + np.isin(e, MANY[:5]) + (d > 3) + (b > 6)
    y = np.minimum(score * n_classes // 4, n_classes - 1)
    y = np.where(rng.random(n) < 0.1, rng.integers(0, n_classes, n), y)
    cells = [np.where(rng.random(n) < missing, "?", col.astype(str)) for col in (a, b, c, e, d)]
    names = np.array([f"k{j}" for j in range(n_classes)])[y]
    lines = ["a,b,c,e,d,class"] + [",".join(row) for row in zip(*cells, names)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _dask_model(client, path: str, params) -> str:
    table = load(client, path, (None, (), ()), summed, 20_000)  # several partitions
    n_numeric = sum(not a.is_nominal for a in table.schema.attributes)
    bins = numeric_bins(client, table.parts, n_numeric, params.max_bins)
    root = grow_cart_dask(client, table.parts, table.schema, params, bins)
    rows = int(table.by_class.sum())
    return dumps_model(tree_of(table.schema, root, params, table.source, rows, table.sha256))


def _local_model(path: str, params, engine: str) -> str:
    tree, _ = train(load_training_table(path, None, (), (), None), params, PruneParams(method="none"), engine=engine)
    return dumps_model(tree)


@pytest.mark.parametrize(
    "max_bins, missing, n_classes, options",
    [
        (8, 0.0, 3, {}),
        (16, 0.1, 3, {"criterion": "entropy"}),
        (64, 0.05, 2, {}),
        (256, 0.2, 3, {"criterion": "cart"}),
        (32, 0.1, 2, {"max_depth": 4, "min_leaf": 5.0, "min_split": 20.0}),
        (32, 0.1, 3, {"purity": 0.9, "min_gain": 0.001}),
    ],
)
def test_cart_model_file_is_the_local_binned_engines(client, tmp_path, max_bins, missing, n_classes, options):
    """Numeric bins and subsets (exhaustive, ordered for two classes, greedy for three), missing values
    sent down the heavier branch, the stopping rules: the reference's and the compiled engine's file."""
    path = _write(tmp_path / "t.csv", 3000, seed=max_bins, missing=missing, n_classes=n_classes)
    params = grow_params("cart", max_bins=max_bins, ties="column", **options)
    model = _dask_model(client, path, params)
    assert '"kind": "subset"' in model and '"kind": "numeric"' in model
    assert model == _local_model(path, params, "reference")
    assert model == _local_model(path, params, "compiled")


def test_many_shards_grow_the_same_cart_model(client, tmp_path, monkeypatch):
    from dtcli.induction.distributed import engine

    monkeypatch.setattr(engine, "SHARD_NODES", 3)
    path = _write(tmp_path / "s.csv", 3000, seed=5, missing=0.1)
    params = grow_params("cart", max_bins=16, ties="column")
    assert _dask_model(client, path, params) == _local_model(path, params, "compiled")


def test_dtree_train_cart_on_dask_is_the_local_max_bins_256_model(client, tmp_path):
    """``-a cart --engine dask``: --max-bins 256 by default, recorded as if given; ties to the first
    column, CART's default with --max-bins (on one machine too, where scikit-learn's order is the
    default without it)."""
    path = _write(tmp_path / "n.csv", 2000, seed=6, missing=0.1)
    common = ["train", path, "-a", "cart", "-q"]
    dask = [*common, "--engine", "dask", "--scheduler", client.scheduler.address, "-o", str(tmp_path / "d.json")]
    result = CliRunner().invoke(cli, dask)
    assert result.exit_code == 0, result.output
    local = [*common, "--max-bins", "256", "-o", str(tmp_path / "l.json")]
    assert CliRunner().invoke(cli, local).exit_code == 0
    model = (tmp_path / "d.json").read_text()
    assert '"ties": "column"' in model and '"max_bins": 256' in model
    assert model == (tmp_path / "l.json").read_text()
    unbinned = [*common, "-o", str(tmp_path / "u.json")]
    assert CliRunner().invoke(cli, unbinned).exit_code == 0
    assert '"ties": "sklearn"' in (tmp_path / "u.json").read_text()  # (scikit-learn's tree without bins)


@pytest.mark.parametrize(
    "extra, named",
    [
        (["--ties", "sklearn"], "--ties sklearn"),
        (["--missing", "fractional"], "--missing fractional"),
        (["--prune", "pessimistic"], "--prune pessimistic"),
        (["--max-leaves", "5"], "--max-leaves"),
        (["--chi2-alpha", "0.05"], "--chi2-alpha"),
    ],
)
def test_what_cart_on_dask_cannot_do_is_refused_in_one_line(client, tmp_path, extra, named):
    path = _write(tmp_path / "r.csv", 200, seed=7, missing=0.1)
    out = tmp_path / "m.json"
    args = ["train", path, "-a", "cart", "--engine", "dask", "--scheduler", client.scheduler.address, *extra]
    result = CliRunner().invoke(cli, [*args, "-o", str(out)])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: --engine dask does not support " + named)
    assert not out.exists()


def test_a_numeric_target_is_refused_unless_read_as_classes(client, tmp_path):
    """Locally, CART regresses a numeric target; the cluster grows classification trees only, so it
    says so rather than take the numbers as classes silently (--task classification asks for that)."""
    path = tmp_path / "y.csv"
    path.write_text("x,y\n" + "".join(f"{i},{i % 3 + 0.5}\n" for i in range(60)))
    args = ["train", str(path), "-t", "y", "-a", "cart", "--engine", "dask", "--scheduler", client.scheduler.address]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "m.json")])
    assert result.exit_code == 1
    assert "classification trees" in result.output and "--task classification" in result.output
    assert not (tmp_path / "m.json").exists()
    result = CliRunner().invoke(cli, [*args, "--task", "classification", "-q", "-o", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    model = (tmp_path / "m.json").read_text()
    assert json.loads(model)["schema"]["target"]["classes"] == ["0.5", "1.5", "2.5"]
    local = ["train", str(path), "-t", "y", "-a", "cart", "--task", "classification", "--max-bins", "256"]
    assert CliRunner().invoke(cli, [*local, "--ties", "column", "-q", "-o", str(tmp_path / "l.json")]).exit_code == 0
    assert model == (tmp_path / "l.json").read_text()


@pytest.mark.parametrize(
    "algorithm, local", [("c45", ["--max-bins", "256"]), ("cart", ["--max-bins", "256", "--ties", "column"])]
)
def test_the_training_set_line_is_the_local_ones(client, tmp_path, algorithm, local):
    """The rows the tree predicts right, counted on the workers: the local run's line (C4.5's
    predictions through missing values are fractional: every branch's share)."""
    path = _write(tmp_path / "a.csv", 2000, seed=8, missing=0.15)
    common = ["train", path, "-a", algorithm]
    dask = CliRunner().invoke(cli, [*common, "--engine", "dask", "--scheduler", client.scheduler.address, "-f", "json"])
    mine = CliRunner().invoke(cli, [*common, *local, "-f", "json"])
    assert dask.exit_code == 0 and mine.exit_code == 0, dask.output
    lines = [[line for line in r.stderr.splitlines() if line.startswith("Training set: ")] for r in (dask, mine)]
    assert len(lines[0]) == 1 and lines[0] == lines[1]
    assert lines[0][0] != "Training set: 2,000 of 2,000 correct (100.0%)"  # (some rows predicted wrong)


def test_an_arff_file_is_refused_in_one_line(client, tmp_path):
    """The cluster reads CSV and Parquet: an ARFF file gets one line saying so, not dask's read_csv error."""
    path = tmp_path / "w.arff"
    path.write_text("@relation w\n@attribute a {x,y}\n@attribute class {p,n}\n@data\nx,p\ny,n\n")
    args = ["train", str(path), "-a", "cart", "--engine", "dask", "--scheduler", client.scheduler.address]
    result = CliRunner().invoke(cli, [*args, "-o", str(tmp_path / "m.json")])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "reads CSV and Parquet files, not ARFF" in result.output and not (tmp_path / "m.json").exists()
