"""CART grown side by side (``cart/parallel.py``): the one-thread builder's arrays, however the work is cut.

The jobs are made small here (a slice of a few dozen rows, any subtree of 8 rows handed over),
so that a 1,500-row tree is cut into dozens of jobs, ties are left for the walk in the true order
(``kernels/replay.py``), and each test runs the cutting many times over.
"""

from __future__ import annotations

import numpy as np
import pytest
from trees import assert_same_arrays, both, generated, same, tied, without_missing

from dtcli.induction import grow_params
from dtcli.induction.cart import engine, parallel
from dtcli.model.table import NUMERIC, Attribute, Schema, Table

pytest.importorskip("numba")


@pytest.fixture
def small_jobs(monkeypatch):
    """Jobs cut fine: a slice of 40 rows, subtrees of 8 rows handed over."""
    monkeypatch.setattr(parallel, "SLICE_ROWS", 40)
    monkeypatch.setattr(parallel, "CARVE_ROWS", 8)


def grown(table, threads: int, monkeypatch, **options):
    """The FlatTree of ``table`` grown by the compiled builder on ``threads`` threads."""
    monkeypatch.setattr(engine, "threads_for", lambda table, params: threads)
    return engine.grow_cart(table, grow_params("cart", **options))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"criterion": "entropy"},
        {"criterion": "cart"},
        {"ties": "column"},
        {"min_leaf": 3.0},
        {"max_depth": 5},
        {"min_gain": 0.001},
        {"seed": 7},
        {"missing": "reject"},
    ],
)
@pytest.mark.parametrize("threads", [2, 3])
def test_side_by_side_grows_the_one_thread_tree(small_jobs, monkeypatch, seed, options, threads):
    table = generated(1500, seed)
    if options.get("missing") == "reject":
        without_missing(table)
    alone = grown(table, 1, monkeypatch, **options)
    assert_same_arrays(grown(table, threads, monkeypatch, **options), alone)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("weighting", ["unit", "whole", "fractional"])
def test_ties_are_decided_in_the_true_order(small_jobs, monkeypatch, criterion, weighting):
    """Mirror-image attributes tie at nearly every node (holes, decided by the walk): the per-node
    reference's tree, which follows scikit-learn's generator from node to node."""
    n = 1500
    weights = {"unit": None, "whole": np.full(n, 2.0), "fractional": np.full(n, 0.5)}[weighting]
    monkeypatch.setattr(engine, "threads_for", lambda table, params: 2)
    for seed in range(2):
        reference, compiled = both(tied(n, seed, weights), criterion=criterion)
        assert same(reference, compiled)


def test_duplicate_columns_tie_everywhere(small_jobs, monkeypatch):
    """Every split has an identical twin: each node is a hole, and the walk grows the whole tree."""
    rng = np.random.default_rng(3)
    n = 1200
    x = np.round(rng.normal(0, 1, n), 2)
    z = rng.normal(0, 1, n)
    y = ((x > 0.3) ^ (z > 0.5) ^ (rng.random(n) < 0.1)).astype(np.int32)
    attributes = tuple(Attribute(name, NUMERIC) for name in ("x", "x_again", "z", "z_again"))
    schema = Schema(attributes, Attribute("y", "nominal", ("no", "yes")))
    table = Table(schema, [x, x.copy(), z, z.copy()], y)
    alone = grown(table, 1, monkeypatch)
    assert_same_arrays(grown(table, 2, monkeypatch), alone)
    assert_same_arrays(grown(table, 4, monkeypatch), alone)


def test_repeated_runs_grow_the_same_arrays(small_jobs, monkeypatch):
    """The work is cut differently from run to run (threads race for it); the arrays never differ."""
    table = generated(2000, 5)
    alone = grown(table, 1, monkeypatch)
    for _ in range(8):
        assert_same_arrays(grown(table, 2, monkeypatch), alone)


def test_the_same_tree_as_the_reference_on_a_larger_table(monkeypatch):
    """With the shipped slice sizes: a tree of 20,000 rows cut into jobs of 1,000 rows or more."""
    monkeypatch.setattr(parallel, "SLICE_ROWS", 2_000)
    table = generated(20_000, 11)
    alone = grown(table, 1, monkeypatch)
    assert_same_arrays(grown(table, 2, monkeypatch), alone)


@pytest.mark.parametrize("threads", [1, 2])
def test_the_table_is_given_back_as_it_was(small_jobs, monkeypatch, threads):
    """The builders move the nominal codes with the rows; the table's columns come back with the
    values and dtypes they had (on threads, from the block put back in row order, with no copy)."""
    table = generated(1500, 3)
    before = [column.copy() for column in table.columns]
    grown(table, threads, monkeypatch)
    for column, old in zip(table.columns, before):
        assert column.dtype == old.dtype
        np.testing.assert_array_equal(column, old)


def test_a_failing_job_fails_the_growth(small_jobs, monkeypatch):
    """An error in any thread is raised in the caller's, no thread is left waiting, and the table
    is given back as it was."""
    import dtcli.induction.cart.kernels.speculate as speculate

    calls = []

    def failing(*args):
        calls.append(1)
        if len(calls) > 3:
            raise MemoryError("no room")
        return real(*args)

    real = speculate.grow_job
    monkeypatch.setattr(speculate, "grow_job", failing)
    table = generated(1500, 0)
    before = [column.copy() for column in table.columns]
    with pytest.raises(MemoryError, match="no room"):
        grown(table, 2, monkeypatch)
    for column, old in zip(table.columns, before):
        np.testing.assert_array_equal(column, old)


@pytest.mark.parametrize(
    ("options", "regression", "expected"),
    [
        ({}, False, 2),
        ({"ties": "column"}, False, 2),
        ({}, True, 1),
        ({"max_leaves": 10}, False, 1),
        ({"chi2_alpha": 0.05}, False, 1),
        ({"missing": "fractional"}, False, 1),
    ],
)
def test_threads_only_for_depth_first_classification(monkeypatch, options, regression, expected):
    import dtcli.induction.workers as workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    table = generated(100, 0)
    if regression:
        table = Table(Schema(table.attributes, Attribute("v", NUMERIC)), table.columns, np.arange(100.0))
    assert parallel.threads_for(table, grow_params("cart", **options)) == expected


def test_threads_are_bounded(monkeypatch):
    import dtcli.induction.workers as workers

    monkeypatch.setattr(workers, "usable_cores", lambda: 64)
    assert parallel.threads_for(generated(100, 0), grow_params("cart")) == parallel.MAX_THREADS
    monkeypatch.setattr(workers, "usable_cores", lambda: 1)
    assert parallel.threads_for(generated(100, 0), grow_params("cart")) == 1


def test_carve_hands_over_the_deepest_buried_node_large_enough():
    from dtcli.induction.cart.kernels.frontier import TOP, carve, frontier_of, push_pair
    from dtcli.induction.cart.kernels.state import Node

    lists = np.array([100], dtype=np.int64)
    frontier = frontier_of(Node(0, 0, 100, 0, 0, np.zeros(1, dtype=np.int64), lists))
    frontier.counts[TOP] = 0  # the root taken; three pairs pushed below it, as a depth-first walk leaves them
    bounds = [((0, 5), (5, 60)), ((60, 70), (70, 72)), ((72, 90), (90, 100))]
    for pair, ((a, b), (c, d)) in enumerate(bounds):
        lo, hi = np.array([a, c]), np.array([b, d])
        list_lo, list_hi = np.array([[a], [c]]), np.array([[b], [d]])
        push_pair(frontier, 10 * pair + 1, lo, hi, pair, 0, list_lo, list_hi)
    ids = lambda: [int(frontier.stack.id[k]) for k in range(frontier.counts[TOP])]  # noqa: E731
    assert ids() == [2, 1, 12, 11, 22, 21]
    taken = carve(frontier, 20)
    assert (taken.id, taken.rs, taken.re) == (2, 5, 60)  # the bottom-most of 20 rows or more
    assert ids() == [1, 12, 11, 22, 21]  # the others in order
    assert carve(frontier, 20).id == -1  # 22 (18 rows) is too small, 21 is next to be taken
    assert carve(frontier, 10).id == 11 and ids() == [1, 12, 22, 21]  # 11: 10 rows
