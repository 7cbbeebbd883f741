"""The level-wise engine and the compiled kernels against the plain-numpy per-node reference:
identical splits and identical trees (every count, threshold and score of the model file)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import MANIFEST, fit, generated, grown_both, same

from dtcli.induction.search.numeric import c45_cut, cut_table
from dtcli.model.format.model import dumps_model
from helpers import WEKA, load

numba = pytest.importorskip("numba")


@pytest.mark.parametrize("seed", range(8))
def test_numeric_kernel_matches_reference(seed):
    """One node's cut: the level-wise scan gives the reference's cut, gain and ratio bit for bit."""
    from dtcli.induction.levelwise.kernels import c45 as c45_kernels
    from dtcli.induction.levelwise.kernels.state import Frontier, Records, SortedList
    from dtcli.induction.search.c45 import c45_gain_ratio

    rng = np.random.default_rng(seed)
    n = 300
    values = np.round(rng.normal(0, 1, n), 1)
    values[rng.random(n) < 0.1] = np.nan
    y = rng.integers(0, 3, n)
    w = np.where(rng.random(n) < 0.2, 0.5, 1.0)
    total = float(np.bincount(y, weights=w).sum())
    reference = c45_cut(cut_table(values, y, w, 3, total=total), 3, 2.0)
    known = np.flatnonzero(~np.isnan(values))
    order = known[np.argsort(values[known], kind="stable")]
    distinct, ranks = np.unique(values[order], return_inverse=True)
    lst = SortedList(ranks.astype(np.int32), np.array([0, len(order)]), order.astype(np.int32))
    recs = Records(np.arange(n, dtype=np.int32), y.astype(np.int32), w, np.zeros(n, dtype=np.int32))
    front = Frontier(np.ones(1, dtype=np.bool_), np.array([total]), 3, 2.0)
    found, lower, upper, gain, ratio = c45_kernels.c45_numeric(lst, recs, distinct, front, True)
    if reference is None:
        assert not found[0]
        return
    assert found[0]
    assert (lower[0], upper[0]) == (reference.lower, reference.upper)
    assert same(float(gain[0]), reference.gain)
    assert same(float(ratio[0]), c45_gain_ratio(reference.branch_counts, total, reference.gain))


def grow_both(table, **options):
    """The model file of the tree grown node by node with numpy and of the one grown level-wise."""
    reference, compiled = grown_both(table, "c45", **options)  # every pruning decision too
    return Same(json.loads(dumps_model(reference))), json.loads(dumps_model(compiled))


class Same:
    """A model dictionary that compares equal to another by ``same``."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other) -> bool:
        return same(self.value, other)

    def __repr__(self) -> str:
        return repr(self.value)


def test_engine_is_used_when_asked():
    from dtcli.induction.backend import LEVELWISE, REFERENCE, choose
    from dtcli.induction.params import GrowParams

    table = generated(100, 0)
    params = GrowParams(algorithm="c45", criterion="gain-ratio", thresholds="data", missing="fractional")
    assert choose(table, params, "compiled") == LEVELWISE
    assert choose(table, params, "reference") == REFERENCE
    assert choose(table, params, "auto") == REFERENCE  # small: no numba start-up


@pytest.mark.parametrize("seed", range(3))
def test_trees_identical_on_generated_data(seed):
    table = generated(3000, seed)
    for options in ({}, {"prune": "none"}):
        reference, compiled = grow_both(table, **options)
        assert reference == compiled


@pytest.mark.parametrize(
    "options",
    [
        {"prune": "none", "criterion": "gain"},
        {"criterion": "entropy"},
        {"prune": "none", "min_leaf": 7.0},
        {"prune": "none", "max_depth": 2},
        {"prune": "none", "min_gain": 0.05},
        {"prune": "none", "purity": 0.8, "min_split": 40.0},
        {"prune": "none", "thresholds": "midpoint"},
        {"prune": "none", "min_leaf": 0.5},
        {"raising": False},
        {"error_bound": "c45r8"},
        {"cf": 0.05},
        {"cf": 0.5, "min_leaf": 1.0},
        {"missing": "majority"},
        {"missing": "class-majority", "prune": "none"},
        {"chi2_alpha": 0.05, "prune": "none"},
        {"chi2_alpha": 0.001},
        {"chi2_alpha": 0.2, "criterion": "gain", "missing": "majority"},
        {"criterion": "gini"},
        {"criterion": "gini", "prune": "none", "min_gain": 0.01},
        {"criterion": "gini", "max_leaves": 10, "missing": "majority"},
        {"max_leaves": 12, "chi2_alpha": 0.05, "prune": "none"},
        {"max_leaves": 30, "chi2_alpha": 0.001},
        {"max_leaves": 1},
        {"max_leaves": 6, "prune": "none"},
        {"max_leaves": 25},
        {"max_leaves": 40, "criterion": "gain", "prune": "none", "min_leaf": 1.0},
    ],
)
def test_trees_identical_with_options(options):
    reference, compiled = grow_both(generated(2000, 7), **options)
    assert reference == compiled


def test_trees_identical_with_many_missing_values():
    table = generated(2500, 11)
    rng = np.random.default_rng(3)
    for i, column in enumerate(table.columns):
        hole = rng.random(len(column)) < 0.25
        column[hole] = -1 if table.attributes[i].is_nominal else np.nan
    table.weights = np.where(rng.random(table.n_rows) < 0.3, 0.5, 1.0)  # weighted rows too
    for options in (
        {"prune": "none"},
        {},
        {"missing": "majority"},
        {"missing": "class-majority"},
        {"missing": "majority", "prune": "none", "criterion": "gain"},
        {"missing": "class-majority", "max_leaves": 12},
        {"missing": "majority", "max_bins": 16},
        {"missing": "root-majority"},
        {"missing": "root-class-majority", "prune": "none"},
        {"chi2_alpha": 0.01},
        {"criterion": "gini", "prune": "none"},
    ):
        reference, compiled = grow_both(table, **options)
        assert reference == compiled


@pytest.mark.parametrize("measure", ["ratio", "tan-schlimmer", "nunez"])
def test_trees_identical_with_attribute_costs(measure):
    from dtcli.induction.criteria.costs import AttributeCosts

    table = generated(2000, 5)
    names = [a.name for a in table.attributes]
    costs = AttributeCosts({names[0]: 5.0, names[1]: 0.5, names[-1]: 2.0}, measure, 0.5)
    for options in ({"prune": "none"}, {"max_leaves": 12}):
        reference, compiled = grow_both(table, costs=costs, **options)
        assert reference == compiled


def test_gini_scores_match_the_per_node_path():
    """With the Gini criterion the chosen splits' scores match too, not only the trees (missing
    values and weights included)."""
    table = generated(2500, 9)
    rng = np.random.default_rng(1)
    table.columns[2][rng.random(table.n_rows) < 0.4] = np.nan  # shares that differ by attribute
    table.weights = np.where(rng.random(table.n_rows) < 0.2, 1.5, 1.0)
    scores = {}
    for engine in ("reference", "compiled"):
        tree, _ = fit(table, "c45", engine=engine, criterion="gini", prune="none")
        scores[engine] = [node.score for node in tree.root.walk()]
    assert same(scores["reference"], scores["compiled"]) and any(s is not None for s in scores["compiled"])


def test_chi_square_steps_come_in_the_per_node_order():
    tree, _ = fit(generated(2000, 7), "c45", engine="compiled", chi2_alpha=0.05, prune="none")
    steps = [s for s in tree.trace if type(s).__name__ == "ChiStep"]
    assert len(steps) > 3 and {s.action for s in steps} == {"split", "leaf"}
    assert steps[0].depth == 0 and steps[0].cases == 2000


J48_FILES = sorted({m["dataset"] for m in MANIFEST if m["ok"] and m["classifier"].endswith("J48")})


@pytest.mark.parametrize("name", J48_FILES)
def test_trees_identical_on_weka_files(name):
    reference, compiled = grow_both(load(WEKA / "data" / f"{name}.arff"))
    assert reference == compiled


def _variant(seed: int, kind: str):
    """Generated tables with the shapes the engine must not trip on."""
    from dtcli.model.table import Schema, Table

    table = generated(1500, seed)
    attributes, columns = list(table.attributes), list(table.columns)
    if kind == "unlabelled":
        y = table.y.copy()
        y[::7] = -1
        return Table(table.schema, columns, y)
    if kind == "nominal only":
        keep = [i for i, a in enumerate(attributes) if a.is_nominal]
    elif kind == "numeric only":
        keep = [i for i, a in enumerate(attributes) if not a.is_nominal]
    else:  # an all-missing numeric column and an all-missing nominal one
        columns[1] = np.full(table.n_rows, np.nan)
        columns[3] = np.full(table.n_rows, -1, dtype=np.int32)
        keep = list(range(len(attributes)))
    schema = Schema(tuple(attributes[i] for i in keep), table.schema.target)
    return Table(schema, [columns[i] for i in keep], table.y)


def test_per_node_and_root_fill_differ_on_the_table_with_many_missing_values():
    """(So that the test above really exercises the engine's per-node fill.)"""
    table = generated(2500, 11)
    rng = np.random.default_rng(3)
    for i, column in enumerate(table.columns):
        column[rng.random(len(column)) < 0.25] = -1 if table.attributes[i].is_nominal else np.nan
    for policy in ("majority", "class-majority"):
        per_node, _ = grow_both(table, missing=policy, prune="none")
        at_root, _ = grow_both(table, missing=f"root-{policy}", prune="none")
        assert not same(per_node.value["root"], at_root.value["root"])


@pytest.mark.parametrize("kind", ["unlabelled", "nominal only", "numeric only", "empty columns"])
def test_trees_identical_on_awkward_tables(kind):
    options_list = ({"prune": "none"}, {}, {"missing": "majority"}, {"missing": "class-majority"})
    for options in (*options_list, {"missing": "root-majority"}, {"missing": "root-class-majority"}):
        reference, compiled = grow_both(_variant(4, kind), **options)
        assert reference == compiled


@pytest.mark.parametrize("kind", ["unlabelled", "nominal only", "numeric only", "empty columns"])
def test_binned_trees_agree_on_awkward_tables(kind):
    """With --max-bins the engine scans each node's records in bin order, adding weights one record
    at a time (ties in row order), and places thresholds among the binned values: the model file is
    the reference's (which grows on the binned table), pruned or not, thresholds and scores included."""
    table = _variant(4, kind)
    for options in ({}, {"prune": "none"}, {"criterion": "gini", "prune": "none"}):
        reference, compiled = grow_both(table, max_bins=5, **options)
        assert reference == compiled


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_binned_thresholds_are_the_references(seed):
    """A binned cut's threshold is J48's: the largest binned value of the whole table not above the
    cut's midpoint, which may be a bin that no row of the node falls in (not the node's lower bin)."""
    table = generated(3000, seed)
    for max_bins in (7, 40):
        reference, compiled = grow_both(table, max_bins=max_bins, prune="none")
        assert reference == compiled


@pytest.mark.parametrize("seed", [4, 9])
def test_binned_midpoint_thresholds_route_rows_as_their_bins(seed):
    """--thresholds midpoint with --max-bins: a midpoint between two binned values is moved down to
    the lower one (where the reference's ``bins.snap`` moves it after growing on the binned table), so
    the engine's rows go where their binned values went. (Routed by the midpoint itself, a node's rows
    all went down one branch and the node split again, level after level, without end.)"""
    table = generated(3000, seed)
    reference, compiled = grow_both(table, max_bins=7, thresholds="midpoint", prune="none")
    assert reference == compiled
    pruned = [fit(table, "c45", engine=e, max_bins=7, thresholds="midpoint")[0] for e in ("reference", "compiled")]
    assert Same(json.loads(dumps_model(pruned[0]))) == json.loads(dumps_model(pruned[1]))  # (the reference's trace
    # names the midpoints it pruned before ``snap`` moved them; the model files agree)


def test_branch_shares_add_up_as_the_per_node_partition_does():
    """A node's shares divide each branch's known weight by their total, summed over the node's own
    branches as ``missing.partition`` sums them (numpy adds 8 or more numbers pairwise, so zeros
    padding the row to the level's widest split would change the last bit)."""
    from dtcli.induction.levelwise.engine import branch_shares

    rng = np.random.default_rng(0)
    n_branches = rng.choice([2, 3, 9, 13, 17], 400)
    sizes = np.zeros((400, 17))
    for k, nb in enumerate(n_branches):
        sizes[k, :nb] = rng.random(nb) * rng.random(nb) * 7
    shares = branch_shares(sizes, n_branches)
    for k, nb in enumerate(n_branches):
        known = sizes[k, :nb]
        assert shares[k, :nb].tolist() == (known / known.sum()).tolist()
