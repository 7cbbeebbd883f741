"""A growth ``auto`` gave to the reference gives way to a compiled engine once it has taken as long as
the engine would have (``backend.grow_watched``): the estimate counts cells, not nodes, and a deep
tree of small leaves costs the reference per node."""

from __future__ import annotations

import time

import numpy as np
import pytest

from dtcli.induction import PruneParams, backend, estimates, grow_params, train
from dtcli.induction.grow import grower
from dtcli.induction.grow.grower import Overdue, Watch, grow
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.render.tree import text_tree


def chain(rows: int) -> Table:
    """x = 0 .. rows-1, the class alternating: CART with min_leaf 1 cuts one row off at each level."""
    schema = Schema((Attribute("x", NUMERIC),), Attribute("y", NOMINAL, ("a", "b")))
    return Table(schema, [np.arange(rows, dtype=np.float64)], np.arange(rows) % 2)


def cache_state(table, params, engine: str) -> str:
    """What the give-way looked at, for a failure's message."""
    from dtcli.induction import compiling
    from dtcli.induction.kernels.cache import chosen_dir

    sets = backend.kernel_sets(table, params, engine)
    return f"sets {sets}, uncached {compiling.uncached(sets, table)} in {chosen_dir()}"


def test_a_watch_not_yet_due_asks_nothing():
    asked = []
    watch = Watch(time.process_time() + 3600, lambda: asked.append(1) or True)
    grown = grow(chain(300), grow_params("cart", min_leaf=1), watch=watch)
    assert grown.depth() == 299 and asked == []


def test_a_watch_past_due_asks_once_and_stops_the_growth_when_told():
    asked = []
    watch = Watch(0.0, lambda: asked.append(1) or True)
    with pytest.raises(Overdue):
        grow(chain(300), grow_params("cart", min_leaf=1), watch=watch)
    assert asked == [1]


def test_a_watch_that_lets_the_growth_go_on_is_not_asked_again():
    asked = []
    watch = Watch(0.0, lambda: asked.append(1) and False)
    trace: list = []
    grown = grow(chain(300), grow_params("cart", min_leaf=1), trace, watch=watch)
    assert grown.depth() == 299 and asked == [1]


def test_a_watch_that_looks_every_so_often_is_asked_again_until_told_to_stop(monkeypatch):
    """(Kernels compiling beside the growth: the cache is looked at every ``every`` CPU seconds.)"""
    answers = [False, False, True]
    asked = []
    monkeypatch.setattr(grower, "WATCH_NODES", 4)
    watch = Watch(0.0, lambda: asked.append(1) or answers[len(asked) - 1], every=0.0)
    with pytest.raises(Overdue):
        grow(chain(300), grow_params("cart", min_leaf=1), watch=watch)
    assert asked == [1, 1, 1]


class FakeBeside:
    """``workers.Beside`` without the fork: the task kept, whether it was stopped and when."""

    started: list = []

    def __init__(self, task):
        self.task, self.stopped = task, False
        FakeBeside.started.append(self)

    def stop(self):
        self.stopped = True


def test_kernels_compiled_beside_the_reference_take_over_the_growth_once_cached(monkeypatch):
    """Cold cache and a spare core: the reference grows while a forked process compiles the engine's
    kernels (by growing the same tree with it); once they are cached, that process is stopped and the
    engine grows the tree (the same tree)."""
    table, params = chain(600), grow_params("cart", min_leaf=1)
    expected = text_tree_of(grow(table, params))
    from dtcli.induction import compiling, workers

    monkeypatch.setattr(FakeBeside, "started", [])
    monkeypatch.setattr(workers, "Beside", FakeBeside)
    monkeypatch.setattr(workers, "may_fork_beside", lambda: True)
    monkeypatch.setattr(estimates, "engine_seconds", lambda table, started=None, kind=None: 0.0)  # (the engine pays)
    monkeypatch.setattr(backend, "supporting", lambda table, params: backend.CART)
    monkeypatch.setattr(backend, "kernel_sets", lambda table, params, choice: ["cart"])
    monkeypatch.setattr(backend, "BESIDE_LOOK", 0.0)
    monkeypatch.setattr(grower, "WATCH_NODES", 8)
    looks = []

    def uncached(sets, table):  # cached from the third look at the cache on
        return [] if len(looks) >= 3 else list(sets)

    def ready(table, params):
        looks.append(1)
        return backend.CART if not uncached(["cart"], table) else backend.REFERENCE

    monkeypatch.setattr(compiling, "uncached", uncached)
    monkeypatch.setattr(backend, "ready_engine", ready)
    monkeypatch.setattr(backend, "LOADED", [])
    reference_grow, grown_by = backend.grow, []

    def grow_by(table, params, choice, *args, **kwargs):  # the engine's growth stands in for its kernels
        grown_by.append((choice, [b.stopped for b in FakeBeside.started]))
        if choice == backend.CART:
            return reference_grow(table, params, backend.REFERENCE)
        return reference_grow(table, params, choice, *args, **kwargs)

    monkeypatch.setattr(backend, "grow", grow_by)
    monkeypatch.setattr(backend, "available", lambda: True)
    assert backend.choose(table, params) == backend.REFERENCE
    root, choice = backend.grow_watched(table, params, backend.REFERENCE)
    assert choice == backend.CART and len(looks) == 3
    assert text_tree_of(root) == expected
    (beside,) = FakeBeside.started
    assert beside.stopped
    assert grown_by == [(backend.REFERENCE, [False]), (backend.CART, [True])]  # stopped before the engine grew
    beside.task()  # what the forked process runs: the engine's growth of this very table
    assert grown_by[-1][0] == backend.CART


def test_a_growth_done_before_the_kernels_compiled_stops_the_process_compiling_them(monkeypatch):
    table, params = chain(200), grow_params("cart", min_leaf=1)
    from dtcli.induction import compiling, workers

    monkeypatch.setattr(FakeBeside, "started", [])
    monkeypatch.setattr(workers, "Beside", FakeBeside)
    monkeypatch.setattr(workers, "may_fork_beside", lambda: True)
    monkeypatch.setattr(estimates, "engine_seconds", lambda table, started=None, kind=None: 0.0)
    monkeypatch.setattr(backend, "supporting", lambda table, params: backend.CART)
    monkeypatch.setattr(backend, "kernel_sets", lambda table, params, choice: ["cart"])
    monkeypatch.setattr(compiling, "uncached", lambda sets, table: list(sets))
    root, choice = backend.grow_watched(table, params, backend.REFERENCE)
    assert choice == backend.REFERENCE and root.depth() == 199
    assert [b.stopped for b in FakeBeside.started] == [True]


def text_tree_of(root) -> str:
    """A grown root's splits and leaves, depth first, as text."""
    lines, stack = [], [(root, 0)]
    while stack:
        node, depth = stack.pop()
        lines.append(f"{depth} {node.test!r} {list(node.counts)}")
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return "\n".join(lines)


def test_only_an_auto_choice_of_the_reference_is_watched(monkeypatch):
    """A requested engine, a narrated growth, binned growth and an engine's own choice run as chosen."""
    table, params = chain(200), grow_params("cart", min_leaf=1)
    monkeypatch.setattr(estimates, "engine_seconds", lambda table, started=None, kind=None: -1.0)  # due at once
    monkeypatch.setattr(backend, "supporting", lambda table, params: pytest.fail("an unwatched growth asked"))
    for engine, narrate in (("reference", False), ("auto", True)):
        _, choice = backend.grow_watched(table, params, backend.REFERENCE, engine, narrate=narrate)
        assert choice == backend.REFERENCE
    _, choice = backend.grow_watched(table, grow_params("cart", min_leaf=1, max_bins=16), backend.REFERENCE)
    assert choice == backend.REFERENCE


def test_the_reference_goes_on_when_no_engine_is_ready(monkeypatch):
    """No engine for these parameters, or its kernels not cached (no compile starts mid-run): the
    reference finishes the growth."""
    table, params = chain(200), grow_params("cart", min_leaf=1)
    monkeypatch.setattr(estimates, "engine_seconds", lambda table, started=None, kind=None: -1.0)
    monkeypatch.setattr(backend, "supporting", lambda table, params: backend.REFERENCE)
    root, choice = backend.grow_watched(table, params, backend.REFERENCE)
    assert choice == backend.REFERENCE and root.depth() == 199
    from dtcli.induction import workers

    monkeypatch.setattr(workers, "may_fork_beside", lambda: False)  # (no core to compile them beside)
    monkeypatch.setattr(backend, "supporting", lambda table, params: backend.CART)
    monkeypatch.setattr(backend, "kernel_sets", lambda table, params, choice: ["cart"])
    from dtcli.induction import compiling

    monkeypatch.setattr(compiling, "uncached", lambda sets, table: list(sets))
    root, choice = backend.grow_watched(table, params, backend.REFERENCE)
    assert choice == backend.REFERENCE and root.depth() == 199


@pytest.mark.compiled
@pytest.mark.parametrize("algorithm", ["cart", "c45", "id3"])
def test_an_overdue_reference_gives_way_to_the_engine_and_the_tree_is_the_same(monkeypatch, algorithm):
    pytest.importorskip("numba")
    if not backend.available():
        pytest.skip("numba cannot be used here")
    rng = np.random.default_rng(5)
    table = Table(
        Schema(
            (Attribute("x", NUMERIC), Attribute("c", NOMINAL, ("p", "q", "r"))),
            Attribute("y", NOMINAL, ("a", "b", "k")),
        ),
        [rng.integers(0, 400, 900).astype(np.float64), rng.integers(0, 3, 900).astype(np.int32)],
        rng.integers(0, 3, 900),
    )
    options = {"thresholds": "midpoint"} if algorithm == "id3" else {"min_leaf": 1} if algorithm == "cart" else {}
    params = grow_params(algorithm, **options)
    expected = text_tree(train(table, params, PruneParams(method="none"), engine="reference")[0])
    # the engine's kernels are cached (the test session's warm-up); due at once, the reference gives way
    monkeypatch.setattr(backend, "LOADED", [])
    monkeypatch.setattr(grower, "WATCH_NODES", 1)  # (looked at from the first node: a small tree too)
    assert backend.choose(table, params, "auto") == backend.REFERENCE  # (by the estimate, small)
    monkeypatch.setattr(estimates, "engine_seconds", lambda table, started=None, kind=None: -1.0)
    _, choice = backend.grow_watched(table, params, backend.REFERENCE)
    engine = backend.supporting(table, params)
    assert choice == engine != backend.REFERENCE, cache_state(table, params, engine)
    assert list(backend.LOADED) == [choice]
    assert text_tree(train(table, params, PruneParams(method="none"), engine="compiled")[0]) == expected


@pytest.mark.compiled
def test_a_deep_chain_trained_as_the_commands_train_it_is_grown_by_the_engine(monkeypatch):
    """4,000 rows of one attribute: the estimate gives the reference a fraction of a second, the chain
    of 4,000 levels takes it seconds; past the engine's start it gives way, and the chain is whole."""
    pytest.importorskip("numba")
    if not backend.available():
        pytest.skip("numba cannot be used here")
    monkeypatch.setattr(backend, "LOADED", [])
    table, params = chain(4000), grow_params("cart", min_leaf=1)
    assert backend.choose(table, params, "auto") == backend.REFERENCE
    tree, _ = train(table, params, PruneParams(method="none"))
    assert list(backend.LOADED) == [backend.CART], cache_state(table, params, backend.CART)
    assert tree.root.depth() == 3999 and tree.root.test.threshold == 0.5
