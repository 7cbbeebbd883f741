"""The Dask engine on a real local cluster (2 worker processes, loopback) writes the local binned engine's model."""

from __future__ import annotations

import re

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.engine import NoColumns, Shape, grow_dask
from dtcli.induction.distributed.quantiles import numeric_bins, positions
from dtcli.induction.params import PruneParams
from dtcli.induction.search.bins import bin_codes
from dtcli.io.dask.frames import load
from dtcli.model.format.model import dumps_model
from dtcli.pipeline.load import load_training_table


def _write(path, n: int, seed: int, missing: float = 0.0) -> str:
    """A table of numeric (many distinct values, few distinct values) and nominal attributes; each
    attribute's cells missing (``?``) with probability ``missing``, drawn after the class."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 12, n)
    c = rng.choice(["red", "green", "blue", "teal"], n)
    d = rng.exponential(2, n).round(2)
    y = np.where(((a > 0.2) & (c != "blue")) | (d > 3), "yes", np.where(b > 7, "maybe", "no"))
    y = np.where(rng.random(n) < 0.1, rng.choice(["no", "yes", "maybe"], n), y)
    cells = [np.where(rng.random(n) < missing, "?", column.astype(str)) for column in (a, b, c, d)]
    lines = ["a,b,c,d,class"] + [",".join(row) for row in zip(*cells, y)]
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


def _fractional(model: str) -> bool:
    """Whether some node's class counts are not whole numbers."""
    counts = re.findall(r'"counts": \[([^\]]*)\]', model)
    return any(float(x) != round(float(x)) for c in counts for x in c.split(","))


def _local_model(path: str, params, engine: str) -> str:
    tree, _ = train(load_training_table(path, None, (), (), None), params, PruneParams(method="none"), engine=engine)
    return dumps_model(tree)


@pytest.mark.parametrize("max_bins", [8, 64])
def test_c45_model_file_is_the_local_binned_engines(client, tmp_path, max_bins):
    path = _write(tmp_path / "t.csv", 3000, seed=max_bins)
    params = grow_params("c45", max_bins=max_bins)
    model = _dask_model(client, path, params, blocksize=20_000)  # several partitions
    assert model == _local_model(path, params, "compiled")
    assert model == _local_model(path, params, "reference")  # (the per-node grower on the binned table)


@pytest.mark.parametrize("max_bins, missing, seed", [(4, 0.3, 1), (8, 0.1, 2), (64, 0.05, 3), (256, 0.2, 4)])
def test_fractional_cases_grow_the_local_binned_engines_model(client, tmp_path, max_bins, missing, seed):
    """Missing values in every attribute, nominal and numeric: C4.5's fractional cases, on the grid."""
    path = _write(tmp_path / "m.csv", 3000, seed=seed, missing=missing)
    params = grow_params("c45", max_bins=max_bins)
    model = _dask_model(client, path, params, blocksize=20_000)  # several partitions
    assert _fractional(model)  # (the case is met: some node holds fractional cases)
    assert model == _local_model(path, params, "compiled")
    assert model == _local_model(path, params, "reference")


@pytest.mark.parametrize("shard_nodes", [1, 5])
def test_many_shards_grow_the_same_model(client, tmp_path, monkeypatch, shard_nodes):
    """Levels scored by several shards of nodes (each a few nodes here) give the same model file."""
    from dtcli.induction.distributed import engine

    monkeypatch.setattr(engine, "SHARD_NODES", shard_nodes)
    path = _write(tmp_path / "s.csv", 3000, seed=11, missing=0.1)
    params = grow_params("c45", max_bins=16)
    model = _dask_model(client, path, params, blocksize=20_000)
    assert _fractional(model)
    assert model == _local_model(path, params, "compiled")


def test_attributes_counted_a_group_at_a_time_grow_the_same_model(client, tmp_path, monkeypatch):
    """A level's attributes counted and scored one at a time (a budget of one cell) give the same model file."""
    from dtcli.induction.distributed import engine

    monkeypatch.setattr(engine, "CELLS_PER_WORKER", 1)
    assert engine.attribute_groups((3, 5, 2), 10, 100.0, 2) == [(0,), (1,), (2,)]
    path = _write(tmp_path / "g.csv", 3000, seed=13, missing=0.1)
    params = grow_params("c45", max_bins=16)
    model = _dask_model(client, path, params, blocksize=20_000)
    assert _fractional(model)
    assert model == _local_model(path, params, "compiled")


def test_midpoint_thresholds_with_fractional_cases(client, tmp_path):
    """--thresholds midpoint: a midpoint between two binned values moved down to the lower one, as the
    local engines place it, so every row goes where its binned value went (a midpoint routing the raw
    values had sent a node's every case down one branch, level after level, without end)."""
    path = _write(tmp_path / "p.csv", 2000, seed=9, missing=0.15)
    params = grow_params("c45", max_bins=16, thresholds="midpoint")
    model = _dask_model(client, path, params, blocksize=15_000)
    assert model == _local_model(path, params, "compiled")
    assert model == _local_model(path, params, "reference")


def test_without_max_bins_the_model_is_max_bins_256s(client, tmp_path):
    """--engine dask defaults to --max-bins 256, recorded as if given: the local --max-bins 256 model file."""
    from click.testing import CliRunner

    from dtcli.cli import cli

    path = _write(tmp_path / "n.csv", 3000, seed=6, missing=0.1)
    common = ["train", path, "-a", "c45", "--no-prune", "-q"]
    dask = [*common, "--engine", "dask", "--scheduler", client.scheduler.address, "-o", str(tmp_path / "d.json")]
    assert CliRunner().invoke(cli, dask).exit_code == 0
    local = [*common, "--max-bins", "256", "-o", str(tmp_path / "l.json")]
    assert CliRunner().invoke(cli, local).exit_code == 0
    model = (tmp_path / "d.json").read_text()
    assert '"max_bins": 256' in model and model == (tmp_path / "l.json").read_text()


def test_quantile_positions_are_numpys():
    q = np.linspace(0, 1, 257)[1:-1]
    for n in [*range(1, 600), 10_007, 65_536, 1_000_003]:
        expected = np.quantile(np.arange(n, dtype=np.float64), q, method="inverted_cdf").astype(np.int64)
        assert (positions(n, q) == expected).all(), n


def test_bins_on_the_cluster_are_bin_codes(client, tmp_path):
    path = _write(tmp_path / "b.csv", 2500, seed=5)
    table = load(client, path, (None, (), ()), summed, 15_000)
    local = load_training_table(path, None, (), (), None)
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


def test_parquet_parts_with_nulls_grow_the_local_engines_model(client, tmp_path):
    """Nulls in Parquet parts (numbers and strings) are C4.5's fractional cases as on one machine."""
    pytest.importorskip("pyarrow", reason="Parquet needs the optional extra: pip install 'dtree[scale]'")
    folder = _parquet_parts(_write(tmp_path / "t.csv", 3000, seed=12, missing=0.1), tmp_path / "parts", 900)
    params = grow_params("c45", max_bins=16)
    model = _dask_model(client, folder, params, blocksize=20_000)
    assert _fractional(model) and model == _local_model(folder, params, "compiled")


@pytest.mark.parametrize(
    "share, options",
    [
        (0, {}),
        (1, {}),
        (4, {}),
        (4, {"max_depth": 6}),
        (1, {"max_depth": 4}),
        (2, {"max_leaves": 9}),
        (4, {"min_leaf": 20}),
    ],
)
def test_the_last_levels_grown_on_the_workers_give_the_same_model(client, tmp_path, monkeypatch, share, options):
    """The frontier handed over to the workers early (share 1: at depth 3 here), as by default (4: at
    depth 5) or never (0); with a depth limit a level or two below the handover, best first, a larger
    --min-leaf: the same model file as the local engine's."""
    from dtcli.induction.distributed import engine, finish

    monkeypatch.setattr(finish, "FINISH_SHARE", share)
    depths = []
    monkeypatch.setattr(engine, "finish", lambda *args: depths.append(args[3]) or finish.finish(*args))
    path = _write(tmp_path / "f.csv", 3000, seed=17, missing=0.1)
    params = grow_params("c45", max_bins=32, **options)
    model = _dask_model(client, path, params, blocksize=20_000)
    assert _fractional(model)
    assert model == _local_model(path, params, "compiled")
    assert len(depths) == (share > 0) and all(d >= 1 for d in depths)  # (never at the root: one node)


def test_runs_of_nodes_and_their_levels_side_by_side():
    from dtcli.induction.distributed.finish import hands_over, merged, node_groups
    from dtcli.induction.levelwise.data import LevelTree

    totals = np.array([5.0, 0.0, 1.0, 4.0, 5.0, 5.0])
    assert hands_over(totals, totals > 0, 1) and not hands_over(totals, totals > 0, 2)  # 5 x 4 <= 20; 5 x 8 > 20
    assert not hands_over(totals, totals < 0, 1)  # nothing may split
    bounds = node_groups(totals, 3)
    assert bounds[0] == 0 and bounds[-1] == 6 and list(bounds) == sorted(set(bounds))
    assert np.add.reduceat(totals, bounds[:-1]).max() <= 10.0  # about a third each, a node never cut

    def level(nb):
        made = LevelTree(np.zeros((len(nb), 2)), np.zeros(len(nb), dtype=np.int64), len(nb))
        made.nb = np.array(nb, dtype=np.int64)
        made.attr = np.where(made.nb > 0, 0, -1)
        made.cstart = np.cumsum(made.nb) - made.nb
        return made

    runs = [[level([2, 0]), level([0, 3])], [level([1]), level([2]), level([0, 0])], [level([0])]]
    out = merged(runs)
    assert [list(lv.nb) for lv in out] == [[2, 0, 1, 0], [0, 3, 2], [0, 0]]
    assert [list(lv.cstart) for lv in out] == [[0, 2, 2, 3], [0, 0, 3], [0, 0]]  # as one level's cumsum
