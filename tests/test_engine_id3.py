"""ID3 through the level-wise engine: the same trees as the per-node reference."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dtcli.induction.algorithms import train
from dtcli.model.serialize import dumps_model
from dtcli.model.table import NOMINAL, Attribute, Schema, Table
from dtcli.render.tree import text_tree
from helpers import WEKA, load
from test_engine import MANIFEST, same

pytest.importorskip("numba")


def nominal_table(n: int, seed: int, missing: float = 0.0) -> Table:
    rng = np.random.default_rng(seed)
    sizes = (3, 5, 2, 7, 4)
    columns = [rng.integers(0, k, n).astype(np.int32) for k in sizes]
    y = ((columns[0] == 1) + (columns[1] % 2) + (columns[3] > 4)) % 3
    flip = rng.random(n) < 0.1
    y[flip] = rng.integers(0, 3, flip.sum())
    for column in columns:
        column[rng.random(n) < missing] = -1
    attributes = tuple(Attribute(f"a{i}", NOMINAL, tuple(f"v{j}" for j in range(k))) for i, k in enumerate(sizes))
    return Table(Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1", "k2"))), columns, y.astype(np.int32))


def both(monkeypatch, table, **options):
    monkeypatch.setenv("DTREE_ENGINE", "numpy")
    reference, _ = train(table, "id3", **options)
    monkeypatch.setenv("DTREE_ENGINE", "numba")
    compiled, _ = train(table, "id3", **options)
    assert text_tree(reference) == text_tree(compiled)
    assert same(reference.trace, compiled.trace)  # chi-square tests, in the same order
    return json.loads(dumps_model(reference)), json.loads(dumps_model(compiled))


@pytest.mark.parametrize("options", [
    {}, {"criterion": "gain-ratio"}, {"criterion": "gini"}, {"max_depth": 2}, {"min_gain": 0.05},
    {"min_leaf": 20.0}, {"purity": 0.8, "min_split": 30.0}, {"chi2_alpha": 0.05}, {"chi2_alpha": 1e-6},
    {"max_leaves": 9}, {"max_leaves": 4, "criterion": "gini"}, {"max_leaves": 12, "chi2_alpha": 0.05},
])
@pytest.mark.parametrize("seed", [1, 2])
def test_same_trees(monkeypatch, options, seed):
    reference, compiled = both(monkeypatch, nominal_table(3000, seed), **options)
    assert same(reference, compiled)


ID3_FILES = sorted({m["dataset"] for m in MANIFEST if m["ok"] and m["classifier"].endswith("Id3")})


@pytest.mark.parametrize("name", ID3_FILES)
def test_same_trees_on_weka_files(monkeypatch, name):
    reference, compiled = both(monkeypatch, load(WEKA / "data" / f"{name}.arff"))
    assert same(reference, compiled)


def test_numeric_thresholds_stay_node_by_node(monkeypatch):
    from dtcli.induction.engine import use_engine
    from dtcli.induction.grow import GrowParams
    from test_engine import generated

    monkeypatch.setenv("DTREE_ENGINE", "numba")
    assert use_engine(nominal_table(100, 0), GrowParams(algorithm="id3"))
    assert not use_engine(generated(100, 0), GrowParams(algorithm="id3", thresholds="midpoint"))
    assert not use_engine(nominal_table(100, 0, 0.1), GrowParams(algorithm="id3", missing="fractional"))


@pytest.mark.parametrize("policy", ["majority", "class-majority"])
def test_same_trees_with_missing_values_filled_in(monkeypatch, policy):
    """The per-node grower fills missing values in at the root; the engine fills the table first."""
    for seed in (1, 2):
        reference, compiled = both(monkeypatch, nominal_table(3000, seed, missing=0.2), missing=policy)
        assert same(reference, compiled)


def test_filled_trees_go_through_the_engine_unless_a_column_has_no_value(monkeypatch):
    from dtcli.induction.algorithms import GrowParams
    from dtcli.induction.engine import use_engine

    monkeypatch.setenv("DTREE_ENGINE", "numba")
    table = nominal_table(300, 3, missing=0.2)
    params = GrowParams(algorithm="id3", criterion="gain", missing="majority")
    assert use_engine(table, params)
    table.columns[2][:] = -1
    assert not use_engine(table, params)


@pytest.mark.parametrize("measure", ["ratio", "tan-schlimmer", "nunez"])
def test_same_trees_with_attribute_costs(monkeypatch, measure):
    from dtcli.induction.costs import AttributeCosts

    costs = AttributeCosts({"a0": 3.0, "a3": 0.25}, measure, 1.0)
    for criterion in ("gain", "gini"):
        reference, compiled = both(monkeypatch, nominal_table(3000, 4), costs=costs, criterion=criterion)
        assert same(reference, compiled)
