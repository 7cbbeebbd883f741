"""The Dask engine's pessimistic pruning (with subtree raising, with C4.5's fractional cases) writes the local
binned engine's pruned model."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("distributed", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")

from dtcli.errors import ParameterError
from dtcli.induction.algorithms import grow_params, train
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.prune import ClusterCases, prune_dask
from dtcli.induction.distributed.train import train_dask
from dtcli.induction.params import PruneParams
from dtcli.induction.prune.pessimistic.steps import Step
from dtcli.io.dask.frames import load
from dtcli.model.format.model import dumps_model
from dtcli.model.tree import Node, NominalTest, NumericTest
from dtcli.pipeline.load import load_training_table

NO_PRUNING = PruneParams(method="none")


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

    tree, _, _ = train_dask(put, params, prune, client.scheduler.address)
    return tree


def _local_tree(path: str, params, prune: PruneParams, engine: str = "compiled"):
    return train(load_training_table(path, None, (), (), None), params, prune, engine=engine)[0]


def _local(path: str, params, prune: PruneParams, engine: str = "compiled") -> str:
    return dumps_model(_local_tree(path, params, prune, engine))


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return _write(tmp_path_factory.mktemp("prune") / "r.csv", 2000, seed=3)


@pytest.mark.parametrize("max_bins, cf", [(8, 0.25), (8, 0.4), (32, 0.4)])
def test_pruned_model_file_is_the_local_binned_engines(client, table, monkeypatch, max_bins, cf):
    """Grown level by level to the end (no subtree finished on a worker), so the client's pruning takes
    every decision, subtree raising among them."""
    from dtcli.induction.distributed import finish

    monkeypatch.setattr(finish, "FINISH_SHARE", 0)
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


def test_fractional_cases_in_raising(client, tmp_path):
    """d is missing only where g = B, which the root splits off; its largest branch (g = A) tests d, and
    sending the root's cases down it (subtree raising) splits the B ones into fractional cases."""
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
    for prune in (PruneParams(method="pessimistic"), PruneParams(method="pessimistic", raising=False)):
        assert dumps_model(_dask(client, str(path), params, prune)) == _local(str(path), params, prune)


def _write_missing(path, n: int, seed: int) -> str:
    """A noisy table with values missing in nominal and numeric attributes (about 8-15 % of each)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(3)
    b = rng.integers(0, 12, n)
    c = rng.choice(["red", "green", "blue", "teal"], n)
    d = rng.exponential(2, n).round(2)
    e = rng.choice(["x", "y", "z"], n)
    y = np.where(((a > 0.2) & (c != "blue")) | (d > 3), "yes", np.where(b > 7, "maybe", "no"))
    flip = rng.random(n) < np.where(e == "x", 0.6, 0.15)
    y = np.where(flip, rng.choice(["no", "yes", "maybe"], n), y)
    columns = [a.astype(str), b.astype(str), c, d.astype(str), e]
    for column, rate in zip(columns, (0.12, 0.08, 0.15, 0.1, 0.05)):
        column[rng.random(n) < rate] = "?"
    lines = ["a,b,c,d,e,class"] + [",".join(col[i] for col in columns) + f",{y[i]}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def _pruned_on_cluster(client, path: str, params, prune: PruneParams):
    """The local binned engine's unpruned tree, pruned on the cluster (partitions of 20,000 bytes): the
    pruning alone, whatever the Dask engine's growth refuses. (The table is put on the cluster first: once
    the local reader has imported pandas, without pyarrow, dask's CSV reader cannot have pyarrow strings.)"""
    table = load(client, path, (None, (), ()), summed, 20_000)
    assert len(table.parts) > 1
    grown = _local_tree(path, params, NO_PRUNING)
    return prune_dask(client, table.parts, table.schema, grown, table.by_class, prune)


@pytest.fixture(scope="module")
def missing(tmp_path_factory):
    return _write_missing(tmp_path_factory.mktemp("prune") / "m.csv", 2500, seed=3)


@pytest.mark.parametrize("max_bins, cf", [(8, 0.4), (32, 0.25), (32, 0.1)])
def test_pruned_with_missing_values_is_the_local_binned_engines(client, missing, max_bins, cf):
    params = grow_params("c45", max_bins=max_bins)
    prune = PruneParams(method="pessimistic", cf=cf)
    tree = _pruned_on_cluster(client, missing, params, prune)
    local = _local_tree(missing, params, prune, "reference")
    assert dumps_model(tree) == dumps_model(local)
    assert dumps_model(tree) == dumps_model(_local_tree(missing, params, prune))
    assert tree.trace == [step for step in local.trace if isinstance(step, Step)]
    assert any(step.action.startswith("raise") for step in tree.trace)  # subtree raising happened
    assert _fractional(tree.root)  # with fractional cases


def _fractional(root) -> bool:
    """Whether some node's class counts are not whole numbers."""
    stack = [root]
    while stack:
        node = stack.pop()
        if np.any(node.counts != np.round(node.counts)):
            return True
        stack.extend(node.children)
    return False


@pytest.mark.parametrize("cf", [0.25, 0.5])
def test_without_raising(client, missing, cf):
    params = grow_params("c45", max_bins=16)
    prune = PruneParams(method="pessimistic", cf=cf, raising=False)
    tree = _pruned_on_cluster(client, missing, params, prune)
    local = _local_tree(missing, params, prune, "reference")
    assert dumps_model(tree) == dumps_model(local) == dumps_model(_local_tree(missing, params, prune))
    assert tree.trace == [step for step in local.trace if isinstance(step, Step)]


def test_fractional_weights_along_a_path(client, tmp_path):
    """Hand-counted. The root's test on g: A has 2 known cases (yes), B 1 (no), and 1 yes lacks g:
    A's bags are yes 2 + 2/3 (its known share), B's yes 1/3, no 1; A's share of the case lacking g is
    (8/3) / 4, its weight there 2/3 on the grid, 11184811 / 2**24 (B's: 5592405 / 2**24). Below A,
    the test x <= 1.5: 1 yes on each side, and that case lacks x too: each side's share is 1/2, its
    weight 11184811 / 2**25 on the grid, 5592406 / 2**24 (the tie rounded to even)."""
    path = tmp_path / "h.csv"
    path.write_text("g,x,class\nA,1,yes\nA,3,yes\nB,2,no\n?,?,yes\n")
    table = load(client, str(path), (None, (), ()), summed, 1 << 20)
    g, x = table.schema.attributes
    yes, no = (table.schema.classes.index(c) for c in ("yes", "no"))
    leaf = Node(np.asarray(table.by_class, dtype=np.float64), yes)
    holder = ClusterCases(client, table.parts, table.schema, table.by_class, True, leaf)
    bags, parts = holder.route(NominalTest(g), holder.root)
    a, b = g.values.index("A"), g.values.index("B")
    assert bags[a][[yes, no]].tolist() == [2 + 2 / 3, 0] and bags[b][[yes, no]].tolist() == [1 / 3, 1]
    assert holder.counts(parts[a])[[yes, no]].tolist() == [2 + 11184811 / 2**24, 0]
    assert holder.counts(parts[b])[[yes, no]].tolist() == [5592405 / 2**24, 1]
    bags, below = holder.route(NumericTest(x, 1.5), parts[a])
    assert [holder.counts(p)[yes] for p in below] == [1 + 5592406 / 2**24] * 2
    assert bags[:, yes].tolist() == [1 + 11184811 / 2**25] * 2


def test_many_paths_in_a_pass(client, tmp_path):
    """A grown tree of about 3,000 nodes: a pass's paths (over 100 kB) are sent ahead to the workers
    (as a keyword argument, distributed would key them by the keyword's name alone: the scheduler
    failed an assertion). The table: 10 nominal attributes of 2-12 values, 10 numeric, 3 classes."""
    rng = np.random.default_rng(2)
    n = 12000
    cats = [rng.integers(0, 2 + (j * 5) % 11, n) for j in range(10)]
    x = rng.normal(50 + 10 * np.arange(10)[:, None], 15, (10, n)).round(2)
    score = (cats[0] == 0) + np.isin(cats[1], [1, 3, 5]) + (x[0] > 50) + (x[1] > 65) * (x[0] <= 45)
    y = np.where(rng.random(n) < 0.15, rng.integers(0, 3, n), np.floor(score * 3 / 4).clip(0, 2)).astype(int)
    header = ",".join([*(f"c{j}" for j in range(10)), *(f"x{j}" for j in range(10)), "label"])
    rows = [",".join([*(f"v{c[i]}" for c in cats), *(str(v) for v in x[:, i]), f"k{y[i]}"]) for i in range(n)]
    path = tmp_path / "wide.csv"
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    params = grow_params("c45", max_bins=16)
    prune = PruneParams(method="pessimistic")
    tree = _pruned_on_cluster(client, str(path), params, prune)
    assert dumps_model(tree) == _local(str(path), params, prune)
    assert tree.parameters["pruning"]["original_leaves"] > 1000


@pytest.mark.parametrize(
    "share, raising, cf, max_bins",
    [(1, True, 0.25, 8), (4, True, 0.4, 32), (2, False, 0.25, 16), (1, True, 0.1, 16), (0, True, 0.25, 16)],
)
def test_subtrees_pruned_on_the_workers_give_the_local_pruned_model(
    client, missing, monkeypatch, share, raising, cf, max_bins
):
    """The frontier handed over early (share 1) or as by default (4), the subtrees grown there collapsed and
    pruned on their workers and the tree pruned again on the client: J48's pruned model, its count of grown
    leaves included (never handed over: share 0, the same)."""
    from dtcli.induction.distributed import engine, finish

    monkeypatch.setattr(finish, "FINISH_SHARE", share)
    grafts = []

    def spy(*args):
        levels, made = finish.finish(*args)
        grafts.append(made)
        return levels, made

    monkeypatch.setattr(engine, "finish", spy)
    params = grow_params("c45", max_bins=max_bins)
    prune = PruneParams(method="pessimistic", cf=cf, raising=raising)
    model = dumps_model(_dask(client, missing, params, prune))
    assert model == _local(missing, params, prune)
    assert model == _local(missing, params, prune, "reference")
    assert (len(grafts) == 1 and len(grafts[0]) > 1) == (share > 0)  # (several subtrees pruned on the workers)
