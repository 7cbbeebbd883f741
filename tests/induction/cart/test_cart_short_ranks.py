"""CART classification's value ranks in 2 bytes (``cart/engine.short_ranks``): the same trees, less memory.

On the tables here (a few thousand rows) the builders hold ranks in 4 bytes unless
``SHORT_RANKS_ROWS`` is lowered, as each test does: then the 2-byte kernels grow them, and must
grow the per-node reference's tree and the 4-byte builders' arrays, on one thread and on several.
"""

from __future__ import annotations

import numpy as np
import pytest
from trees import assert_same_arrays, both, generated, same, tied, without_missing

from dtcli.induction import compiling, grow_params
from dtcli.induction.cart import engine, parallel
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

pytest.importorskip("numba")
pytestmark = pytest.mark.variants  # the 2-byte builders: CART's sets compiled again


@pytest.fixture
def chosen(monkeypatch) -> list:
    """What ``short_ranks`` answered in each run, the threshold lowered so that it may say yes."""
    answers: list = []
    decide = engine.short_ranks

    def spy(table, n, distinct):
        answers.append(decide(table, n, distinct))
        return answers[-1]

    monkeypatch.setattr(engine, "short_ranks", spy)
    monkeypatch.setattr(engine, "SHORT_RANKS_ROWS", 0)
    return answers


def grown(table, threads: int, monkeypatch, short: bool, **options):
    """The FlatTree of ``table`` by the compiled builder on ``threads`` threads, ranks in 2 bytes or 4."""
    monkeypatch.setattr(engine, "threads_for", lambda table, params: threads)
    monkeypatch.setattr(engine, "SHORT_RANKS_ROWS", 0 if short else 10**9)
    return engine.grow_cart(table, grow_params("cart", **options))


EVERY_BUILDER = [
    {},
    {"criterion": "entropy"},
    {"ties": "column"},
    {"min_leaf": 3.0, "max_depth": 6},
    {"missing": "reject"},
]
ONE_THREAD = [{"missing": "fractional"}, {"max_leaves": 20}, {"chi2_alpha": 0.05}]  # (parallel.threads_for: 1)


@pytest.mark.parametrize(
    ("threads", "options"), [(1, o) for o in EVERY_BUILDER + ONE_THREAD] + [(2, o) for o in EVERY_BUILDER]
)
def test_two_byte_ranks_grow_the_four_byte_arrays(monkeypatch, threads, options):
    monkeypatch.setattr(parallel, "SLICE_ROWS", 40)
    monkeypatch.setattr(parallel, "CARVE_ROWS", 8)
    for seed in range(2):
        table = generated(1500, seed)
        if options.get("missing") == "reject":
            without_missing(table)
        long = grown(table, threads, monkeypatch, False, **options)
        assert_same_arrays(grown(table, threads, monkeypatch, True, **options), long)


@pytest.mark.parametrize("threads", [1, 2])
def test_two_byte_ranks_grow_the_reference_tree(chosen, monkeypatch, threads):
    monkeypatch.setattr(engine, "threads_for", lambda table, params: threads)
    for seed in range(2):
        for table in (generated(800, seed), tied(800, seed)):
            reference, compiled = both(table)
            assert same(reference, compiled)
    assert chosen and all(chosen)


def wide_table(n: int, distinct: int) -> Table:
    """``n`` rows: a numeric attribute of ``distinct`` distinct values, another of 10, a nominal one."""
    rng = np.random.default_rng(0)
    columns = [
        rng.permutation(np.arange(n) % distinct).astype(np.float64),
        (np.arange(n) % 10).astype(np.float64),
        rng.integers(0, 3, n).astype(np.int32),
    ]
    attributes = (Attribute("many", NUMERIC), Attribute("few", NUMERIC), Attribute("c", NOMINAL, ("a", "b", "c")))
    y = (columns[0] % 3).astype(np.int32)
    return Table(Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1", "k2"))), columns, y)


def test_short_ranks_only_where_every_rank_fits_in_two_bytes(monkeypatch):
    monkeypatch.setattr(engine, "SHORT_RANKS_ROWS", 100)
    table = generated(300, 0)
    fits = [np.arange(2**16.0), np.arange(5.0)]
    assert engine.short_ranks(table, 300, fits)
    assert not engine.short_ranks(table, 100, fits)  # small tables keep the 4-byte kernels
    assert not engine.short_ranks(table, 300, [np.arange(2**16 + 1.0), np.arange(5.0)])
    assert not engine.short_ranks(table, 300, [])  # no numeric attribute: no ranks
    regression = Table(Schema(table.attributes, Attribute("v", NUMERIC)), table.columns, np.zeros(300))
    assert not engine.short_ranks(regression, 300, fits)


def test_an_attribute_of_more_than_65536_values_keeps_four_bytes(chosen, monkeypatch):
    """The table just past the bound: four-byte ranks, and the tree of the two-byte builder where
    the bound is not passed (the many-valued column's ranks cut to fit)."""
    monkeypatch.setattr(engine, "threads_for", lambda table, params: 1)
    params = grow_params("cart", max_depth=3)
    long = engine.grow_cart(wide_table(70_000, 2**16 + 1), params)
    assert chosen == [False]
    short = engine.grow_cart(wide_table(70_000, 2**16), params)
    assert chosen == [False, True]
    assert long.attr[0] >= 0 and short.attr[0] >= 0


def test_the_short_variant_is_named_for_large_classification_tables(monkeypatch):
    monkeypatch.setattr(compiling, "SHORT_RANKS_ROWS", 100)
    table = generated(300, 0)
    assert compiling.variant("cart", table) == "short"
    assert compiling.variant("cart-side", table) == "short"
    assert compiling.variant("regression", table) == ""
    assert compiling.variant("levelwise", table) == ""
    assert compiling.variant("cart", generated(100, 0)) == ""
    wide = Attribute("w", NOMINAL, tuple(f"v{i}" for i in range(200)))
    widened = Table(
        Schema((*table.attributes, wide), table.schema.target), [*table.columns, np.zeros(300, np.int32)], table.y
    )
    assert compiling.variant("cart", widened) == "wide-short"
    assert compiling.variant("regression", widened) == "wide"
