"""The Dask engine's pessimistic pruning (with subtree raising) writes the local binned engine's pruned model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from dtcli.cli.common import Source
from dtcli.errors import ParameterError
from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.distributed.train import train_dask
from dtcli.induction.params import PruneParams
from dtcli.io.dask_frames import load
from dtcli.model.serialize import dumps_model


def _write(path, n: int, seed: int) -> str:
    """A noisy table (noisier where e = x) on which J48's subtree raising changes the pruned tree."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 12, n)
    c = rng.choice(["red", "green", "blue", "teal"], n)
    d = rng.exponential(2, n).round(2)
    e = rng.choice(["x", "y", "z"], n)
    y = np.where(((a > 0.2) & (c != "blue")) | (d > 3), "yes", np.where(b > 7, "maybe", "no"))
    flip = rng.random(n) < np.where(e == "x", 0.7, 0.175)
    y = np.where(flip, rng.choice(["no", "yes", "maybe"], n), y)
    lines = ["a,b,c,d,e,class"] + [f"{a[i]},{b[i]},{c[i]},{d[i]},{e[i]},{y[i]}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _dask(client, path: str, params, prune: PruneParams):
    def put(on, summed):
        return load(on, path, (None, (), ()), summed, 20_000)  # several partitions

    tree, _ = train_dask(put, params, prune, client.scheduler.address)
    return tree


def _local(path: str, params, prune: PruneParams, engine: str = "compiled") -> str:
    tree, _ = train(Source(path, None, (), (), None).load(), params, prune, engine=engine)
    return dumps_model(tree)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("prune") / "r.csv", 2000, seed=3)


@pytest.mark.parametrize("max_bins, cf", [(8, 0.25), (8, 0.4), (32, 0.25), (32, 0.4)])
def test_pruned_model_file_is_the_local_binned_engines(client, table, max_bins, cf):
    params = grow_params("c45", max_bins=max_bins)
    prune = PruneParams(method="pessimistic", cf=cf)
    tree = _dask(client, table, params, prune)
    model = dumps_model(tree)
    assert model == _local(table, params, prune)
    assert model == _local(table, params, prune, "reference")
    assert any(step.action.startswith("raise") for step in tree.trace)  # subtree raising happened,
    assert model.replace('"raising": true', '"raising": false') != _local(table, params, replace(prune, raising=False))
    assert tree.root.n_leaves() < tree.parameters["pruning"]["original_leaves"]  # and changed the tree


def test_without_raising_too(client, table):
    params = grow_params("c45", max_bins=8)
    prune = PruneParams(method="pessimistic", cf=0.25, raising=False)
    assert dumps_model(_dask(client, table, params, prune)) == _local(table, params, prune)


def test_reduced_error_is_refused(client, table):
    with pytest.raises(ParameterError, match="--engine dask does not support --prune reduced-error"):
        _dask(client, table, grow_params("c45", max_bins=8), PruneParams(method="reduced-error"))


def test_fractional_cases_in_raising_are_refused(client, tmp_path):
    """d is missing only where g = B, which the root splits off; its largest branch (g = A) tests d, and
    sending the root's cases down it (subtree raising) would split the B ones into fractional cases."""
    rng = np.random.default_rng(1)
    n = 1500
    g = rng.choice(["A", "B", "C"], n, p=[0.5, 0.25, 0.25])
    d = rng.exponential(2, n).round(2)
    y = np.where(g == "B", "no", np.where(g == "C", "maybe", np.where(d > 2, "yes", "no")))
    y = np.where(rng.random(n) < 0.05, "yes", y)
    cells = np.where(g == "B", "?", d.astype(str))
    path = tmp_path / "f.csv"
    path.write_text("g,d,class\n" + "".join(f"{g[i]},{cells[i]},{y[i]}\n" for i in range(n)))
    params = grow_params("c45", max_bins=8)
    with pytest.raises(ParameterError, match="pruning would send cases without a value of 'd' down a test on it"):
        _dask(client, str(path), params, PruneParams(method="pessimistic"))
    prune = PruneParams(method="pessimistic", raising=False)  # without raising, no case leaves its branch
    assert dumps_model(_dask(client, str(path), params, prune)) == _local(str(path), params, prune)
