"""ID3 through the level-wise engine: the same trees as the per-node reference."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import MANIFEST, grown_both, same

from dtcli.model.format.model import dumps_model
from dtcli.model.table import NOMINAL, Attribute, Schema, Table
from helpers import WEKA, load

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


def both(table, **options):
    reference, compiled = grown_both(table, "id3", **options)  # chi-square tests in the same order
    return json.loads(dumps_model(reference)), json.loads(dumps_model(compiled))


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"criterion": "gain-ratio"},
        {"criterion": "gini"},
        {"max_depth": 2},
        {"min_gain": 0.05},
        {"min_leaf": 20.0},
        {"purity": 0.8, "min_split": 30.0},
        {"chi2_alpha": 0.05},
        {"chi2_alpha": 1e-6},
        {"max_leaves": 9},
        {"max_leaves": 4, "criterion": "gini"},
        {"max_leaves": 12, "chi2_alpha": 0.05},
    ],
)
@pytest.mark.parametrize("seed", [1, 2])
def test_same_trees(options, seed):
    reference, compiled = both(nominal_table(3000, seed), **options)
    assert same(reference, compiled)


ID3_FILES = sorted({m["dataset"] for m in MANIFEST if m["ok"] and m["classifier"].endswith("Id3")})


@pytest.mark.parametrize("name", ID3_FILES)
def test_same_trees_on_weka_files(name):
    reference, compiled = both(load(WEKA / "data" / f"{name}.arff"))
    assert same(reference, compiled)


def id3_both(monkeypatch, table, **options):
    """``both`` with the referee's calls counted: (reference, compiled, nodes the reference decided)."""
    from dtcli.induction.levelwise import id3_level as engine_id3_level

    calls = []
    decide = engine_id3_level.Id3Level._decide
    monkeypatch.setattr(
        engine_id3_level.Id3Level,
        "_decide",
        lambda self, level, node, rivals=None: calls.append(node) or decide(self, level, node, rivals),
    )
    reference, compiled = both(table, **options)
    return reference, compiled, len(calls)


NUMERIC_OPTIONS = [
    {},
    {"criterion": "gain-ratio"},
    {"criterion": "gini"},
    {"thresholds": "data"},
    {"min_leaf": 5.0},
    {"max_depth": 3, "min_gain": 0.01},
    {"chi2_alpha": 0.05},
    {"max_leaves": 7},
    {"max_bins": 8},
    {"missing": "majority"},
    {"missing": "class-majority", "criterion": "gain-ratio"},
]


@pytest.mark.parametrize("options", NUMERIC_OPTIONS)
@pytest.mark.parametrize("seed", [1, 2])
def test_same_trees_with_numeric_thresholds_and_fractional_cases(monkeypatch, options, seed):
    """Mitchell's numeric cuts (ID3 with --thresholds) and C4.5's fractional cases through the
    engine; ``generated`` has missing values in three of its four columns."""
    from trees import generated

    options = {"thresholds": "midpoint", "missing": "fractional", **options}
    reference, compiled, _ = id3_both(monkeypatch, generated(3000, seed), **options)
    assert same(reference, compiled)


def test_same_trees_with_fractional_cases_on_nominal_tables(monkeypatch):
    for criterion in ("gain", "gain-ratio", "gini"):
        reference, compiled, _ = id3_both(
            monkeypatch, nominal_table(3000, 5, missing=0.15), missing="fractional", criterion=criterion
        )
        assert same(reference, compiled)


NUMERIC_FILES = ["breast-cancer", "diabetes", "glass", "iris", "labor", "soybean", "vote", "weather.numeric"]


@pytest.mark.parametrize("name", NUMERIC_FILES)
def test_same_trees_on_weka_files_with_thresholds(monkeypatch, name):
    table = load(WEKA / "data" / f"{name}.arff")
    for criterion in ("gain", "gain-ratio"):
        reference, compiled, _ = id3_both(
            monkeypatch, table, thresholds="midpoint", missing="fractional", criterion=criterion
        )
        assert same(reference, compiled)


def test_tied_attributes_are_decided_by_the_reference(monkeypatch):
    """A column and its copy (nominal, and numeric scaled by 3) tie exactly at every node where they
    are best; those nodes are handed to the per-node choice, which keeps the first column."""
    from trees import generated

    table = generated(2000, 3)
    copies = Schema(
        table.attributes
        + (
            Attribute("c0 again", NOMINAL, table.attributes[0].values),
            Attribute("x1 times 3", table.attributes[1].kind),
        ),
        table.schema.target,
    )
    doubled = Table(copies, list(table.columns) + [table.columns[0].copy(), table.columns[1] * 3], table.y)
    reference, compiled, decided = id3_both(monkeypatch, doubled, thresholds="midpoint", missing="fractional")
    assert same(reference, compiled)
    assert decided > 0
    tested = {n["test"]["attribute"] for n in _nodes(compiled["root"]) if "test" in n}
    assert "c0" in tested and "x1" in tested and not tested & {"c0 again", "x1 times 3"}


def _nodes(node):
    yield node
    for branch in node.get("branches", []):
        yield from _nodes(branch["node"])


def test_contested_flags_near_ties_and_the_average_gain_rule():
    from dtcli.induction.criteria.constants import ENTROPY, RATIO
    from dtcli.induction.levelwise.kernels.loops import id3_contested

    found = np.ones((3, 3), dtype=np.bool_)
    gains = np.array([[0.5, 0.3, 0.1], [0.5, 0.5 - 1e-12, 0.1], [0.2, 0.2, 0.2]])
    scores = gains.copy()
    best = np.zeros(3, dtype=np.int64)
    flags = id3_contested(found, gains, scores, ENTROPY, best, scores[:, 0].copy(), 1e-9)
    assert flags.tolist() == [False, True, True]
    gains = np.array([[0.5, 0.103, 0.3], [0.5, 0.2, 0.3]])  # row 0: 0.3 is the average gain less 1e-3
    ratios = np.array([[0.9, 0.1, 0.2], [0.9, 0.1, 0.2]])
    flags = id3_contested(
        np.ones((2, 3), dtype=np.bool_), gains, ratios, RATIO, np.zeros(2, dtype=np.int64), np.array([0.9, 0.9]), 1e-9
    )
    assert flags.tolist() == [True, False]


@pytest.mark.parametrize("policy", ["majority", "class-majority", "root-majority", "root-class-majority"])
def test_same_trees_with_missing_values_filled_in(policy):
    """majority, class-majority: both fill each node's missing values from the node's rows (the
    engine level by level); root-*: the whole table once, before growth."""
    for seed in (1, 2):
        reference, compiled = both(nominal_table(3000, seed, missing=0.2), missing=policy)
        assert same(reference, compiled)


@pytest.mark.parametrize("policy", ["majority", "class-majority"])
def test_the_per_node_fill_is_not_the_root_fill(policy):
    """The tables above give other trees filled at each node than filled once (so the engine's
    per-node fill is really exercised), and the root fill is the engine's too."""
    table = nominal_table(3000, 1, missing=0.2)
    per_node, _ = both(table, missing=policy)
    at_root, _ = both(table, missing=f"root-{policy}")
    assert not same(per_node["root"], at_root["root"])


@pytest.mark.parametrize(
    "options",
    [{"thresholds": "midpoint"}, {"criterion": "gain-ratio", "thresholds": "midpoint"}, {"thresholds": "data"}],
)
@pytest.mark.parametrize("policy", ["majority", "class-majority"])
def test_same_trees_with_numeric_attributes_filled_in_per_node(policy, options):
    """Numeric attributes with missing values (``generated``: three of four columns): each level
    fills and re-sorts them from the frontier nodes' rows."""
    from trees import generated

    reference, compiled = both(generated(3000, 4), missing=policy, **options)
    assert same(reference, compiled)


def xor_table(copies: int) -> Table:
    a = np.array([0, 0, 1, 1] * copies, dtype=np.int32)
    b = np.array([0, 1, 0, 1] * copies, dtype=np.int32)
    attributes = (Attribute("A", NOMINAL, ("f", "t")), Attribute("B", NOMINAL, ("f", "t")))
    return Table(Schema(attributes, Attribute("y", NOMINAL, ("no", "yes"))), [a, b], (a ^ b).astype(np.int32))


@pytest.mark.parametrize("copies", [1, 2, 1000])
def test_zero_gain_split_grows_xor_in_the_engine(copies):
    """XOR (and XOR with every row repeated): no attribute gains anything at the root; with
    --zero-gain split both growers make Mitchell's ID3 tree, A then B, four pure leaves."""
    reference, compiled = both(xor_table(copies), zero_gain="split")
    assert same(reference, compiled)
    assert compiled["root"]["test"]["attribute"] == "A"
    leaves = [leaf["node"] for child in compiled["root"]["branches"] for leaf in child["node"]["branches"]]
    assert [leaf["counts"] for leaf in leaves] == [[copies, 0], [0, copies], [0, copies], [copies, 0]]
    _, leaf = both(xor_table(copies))
    assert leaf["root"]["kind"] == "leaf"


@pytest.mark.parametrize("options", [{}, {"missing": "majority"}, {"max_depth": 3}, {"max_leaves": 9}])
def test_same_trees_with_zero_gain_split(options):
    table = nominal_table(3000, 6, missing=0.1 if options.get("missing") else 0.0)
    table.y = (table.columns[0] + table.columns[2]) % 2  # an XOR-like target, and noise-free
    reference, compiled = both(table, zero_gain="split", **options)
    assert same(reference, compiled)


def test_filled_trees_go_through_the_engine_even_when_a_column_has_no_value():
    from dtcli.induction.backend import LEVELWISE, choose
    from dtcli.induction.params import GrowParams

    table = nominal_table(300, 3, missing=0.2)
    params = GrowParams(algorithm="id3", criterion="gain", missing="majority")
    assert choose(table, params, "compiled") == LEVELWISE
    table.columns[2][:] = -1
    assert choose(table, params, "compiled") == LEVELWISE
    reference, compiled = both(table, missing="majority")
    assert same(reference, compiled)


@pytest.mark.parametrize("measure", ["ratio", "tan-schlimmer", "nunez"])
def test_same_trees_with_attribute_costs(measure):
    from dtcli.induction.criteria.costs import AttributeCosts

    costs = AttributeCosts({"a0": 3.0, "a3": 0.25}, measure, 1.0)
    for criterion in ("gain", "gini"):
        reference, compiled = both(nominal_table(3000, 4), costs=costs, criterion=criterion)
        assert same(reference, compiled)
