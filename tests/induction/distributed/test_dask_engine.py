"""The Dask engine on a real local cluster (2 worker processes, loopback) writes the local binned engine's model."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from dtcli.cli.common import Source
from dtcli.errors import ParameterError
from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.engine import NoColumns, Shape, grow_dask
from dtcli.induction.distributed.quantiles import numeric_bins, positions
from dtcli.induction.params import PruneParams
from dtcli.induction.search.bins import bin_codes
from dtcli.io.dask_frames import load
from dtcli.model.serialize import dumps_model


def _write(path, n: int, seed: int, missing: bool = False) -> str:
    """A table of numeric (many distinct values, few distinct values) and nominal attributes."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 12, n)
    c = rng.choice(["red", "green", "blue", "teal"], n)
    d = rng.exponential(2, n).round(2)
    y = np.where(((a > 0.2) & (c != "blue")) | (d > 3), "yes", np.where(b > 7, "maybe", "no"))
    y = np.where(rng.random(n) < 0.1, rng.choice(["no", "yes", "maybe"], n), y)
    lines = ["a,b,c,d,class"]
    for i in range(n):
        cell = "?" if missing and rng.random() < 0.05 else str(d[i])
        lines.append(f"{a[i]},{b[i]},{c[i]},{cell},{y[i]}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _dask_model(client, path: str, params, blocksize: int) -> str:
    from dtcli.induction.distributed.train import tree_of

    table = load(client, path, (None, (), ()), summed, blocksize)
    n_numeric = sum(not a.is_nominal for a in table.schema.attributes)
    bins = numeric_bins(client, table.parts, n_numeric, params.max_bins)
    shape = Shape(table.schema.attributes, table.schema.classes, table.n_rows, NoColumns(table.schema.attributes))
    flat = grow_dask(client, table.parts, shape, params, bins)
    return dumps_model(tree_of(table.schema, flat, params, table.source, int(table.by_class.sum()), table.sha256))


def _local_model(path: str, params, engine: str) -> str:
    tree, _ = train(Source(path, None, (), (), None).load(), params, PruneParams(method="none"), engine=engine)
    return dumps_model(tree)


@pytest.mark.parametrize("max_bins", [8, 64])
def test_c45_model_file_is_the_local_binned_engines(client, tmp_path, max_bins):
    path = _write(tmp_path / "t.csv", 3000, seed=max_bins)
    params = grow_params("c45", max_bins=max_bins)
    model = _dask_model(client, path, params, blocksize=20_000)  # several partitions
    assert model == _local_model(path, params, "compiled")
    assert model == _local_model(path, params, "reference")  # (the per-node grower on the binned table)


def test_a_split_on_missing_values_is_refused_not_different(client, tmp_path):
    path = _write(tmp_path / "m.csv", 2000, seed=3, missing=True)
    with pytest.raises(ParameterError, match="column 'd' has missing values where the tree splits"):
        _dask_model(client, path, grow_params("c45", max_bins=16), blocksize=20_000)


def test_quantile_positions_are_numpys():
    q = np.linspace(0, 1, 257)[1:-1]
    for n in [*range(1, 600), 10_007, 65_536, 1_000_003]:
        expected = np.quantile(np.arange(n, dtype=np.float64), q, method="inverted_cdf").astype(np.int64)
        assert (positions(n, q) == expected).all(), n


def test_bins_on_the_cluster_are_bin_codes(client, tmp_path):
    path = _write(tmp_path / "b.csv", 2500, seed=5)
    table = load(client, path, (None, (), ()), summed, 15_000)
    local = Source(path, None, (), (), None).load()
    bins = numeric_bins(client, table.parts, 2, 32)
    for j, i in enumerate([0, 1]):  # a (many values), b (12 values: each its own bin)
        _, tops = bin_codes(local.columns[i], local.labelled(), 32)
        assert np.array_equal(bins[j][2], tops)


def _parquet_parts(csv_path: str, folder, rows_per_part: int) -> str:
    """The CSV table as Parquet parts (numbers as int64 / float64, text as strings, ? as null), in row order."""
    import pyarrow.csv as pv
    import pyarrow.parquet as pq

    table = pv.read_csv(csv_path, convert_options=pv.ConvertOptions(null_values=["?"], strings_can_be_null=True))
    folder.mkdir()
    for i, start in enumerate(range(0, table.num_rows, rows_per_part)):
        pq.write_table(table.slice(start, rows_per_part), folder / f"part-{i:05d}.parquet", row_group_size=400)
    return str(folder)


def test_parquet_parts_train_the_local_engines_model(client, tmp_path):
    pytest.importorskip("pyarrow", reason="Parquet needs the optional extra: pip install 'dtree[scale]'")
    csv_path = _write(tmp_path / "t.csv", 3000, seed=11)
    folder = _parquet_parts(csv_path, tmp_path / "parts", 700)
    params = grow_params("c45", max_bins=32)
    model = _dask_model(client, folder, params, blocksize=20_000)
    assert model == _local_model(folder, params, "compiled")  # the same bytes, sha256 of the parts included
    # the CSV file's model but for the name and the digest of the bytes read
    csv_model = _local_model(csv_path, params, "compiled")
    strip = lambda text: re.sub(r'"(sha256|source)": "[^"]*"', "", text)  # noqa: E731
    assert strip(model) == strip(csv_model)
    glob = _dask_model(client, folder + "/part-*.parquet", params, blocksize=20_000)
    assert strip(glob) == strip(model) and '"sha256": ""' in glob
