"""The automatic engine choice by cost: the table's shape and this machine's kernel cache decide, never the tree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dtcli.induction import backend, compiling, estimates, grow_params, workers
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table


def shaped(rows: int, numeric: int, nominal: int = 0, classes: int = 3, seed: int = 0) -> Table:
    """A table of ``rows`` rows, ``numeric`` numeric and ``nominal`` nominal attributes, ``classes`` classes."""
    rng = np.random.default_rng(seed)
    attributes = [Attribute(f"x{j}", NUMERIC) for j in range(numeric)]
    attributes += [Attribute(f"c{j}", NOMINAL, ("a", "b", "c")) for j in range(nominal)]
    columns = [rng.integers(0, 17, rows).astype(np.float64) for _ in range(numeric)]
    columns += [rng.integers(0, 3, rows).astype(np.int32) for _ in range(nominal)]
    target = Attribute("y", NOMINAL, tuple(f"k{k}" for k in range(classes)))
    return Table(Schema(tuple(attributes), target), columns, rng.integers(0, classes, rows))


WEATHER = {"rows": 14, "numeric": 2, "nominal": 2, "classes": 2}
IRIS = {"rows": 150, "numeric": 4, "classes": 3}
DIGITS = {"rows": 1797, "numeric": 64, "classes": 10}
LARGER_DIGITS = {"rows": 5000, "numeric": 64, "classes": 10}
WIDE = {"rows": 50_000, "numeric": 50, "nominal": 50, "classes": 30}


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """A machine where numba can be used (not imported here) and whose kernel cache starts empty;
    ``machine(sets)`` puts those sets' index files in it, as a compile would."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("DTREE_PREBUILT_KERNELS", "0")  # (nothing copied in from an install's build)
    monkeypatch.setattr(backend, "available", lambda: True)
    monkeypatch.setattr(estimates, "STARTED", [])
    monkeypatch.setattr(workers, "may_fork_beside", lambda: False)  # (one core: no compiling beside; see below)

    def cache(sets: list[str]) -> None:
        from dtcli.induction.kernels.cache import chosen_dir

        for name in sets:
            for file, function, _ in compiling.KERNEL_SETS[name]:
                index = Path(compiling.index_glob(chosen_dir(), file, function).replace("*", "7"))
                index.parent.mkdir(parents=True, exist_ok=True)
                index.touch()

    return cache


EVERY_SET = list(compiling.KERNEL_SETS)


@pytest.mark.parametrize("shape", [WEATHER, IRIS])
@pytest.mark.parametrize("algorithm", ["id3", "c45", "cart"])
def test_small_tables_stay_on_the_reference_even_with_every_kernel_cached(machine, shape, algorithm):
    """Their reference growth takes less than the engines' start: scripts calling dtree often pay no numba."""
    machine(EVERY_SET)
    table = shaped(**shape)
    assert backend.choose(table, grow_params(algorithm)) == backend.REFERENCE
    assert not backend.compiled_pruning(table)
    assert backend.choose(table, grow_params(algorithm), "compiled") != backend.REFERENCE  # asked for: the engine


def test_a_classroom_table_goes_to_the_engine_when_its_kernels_are_cached(machine):
    """digits (1,797 rows, 64 numeric attributes, 10 classes): seconds by ID3's reference, a fraction
    compiled. C4.5's and CART's references score a node's numeric attributes side by side and grow
    digits sooner than an engine starts (C4.5 0.6 s, CART 1.1 s, against 1.2 s, measured); 5,000 such
    rows go to the engine."""
    table = shaped(**DIGITS)
    assert estimates.reference_seconds("id3", table) > 3 * estimates.engine_seconds(table)
    machine(["levelwise", "c45", "id3", "cart", "cart-side", "prune"])
    assert backend.choose(table, grow_params("c45")) == backend.REFERENCE
    assert backend.choose(table, grow_params("cart")) == backend.REFERENCE
    assert backend.choose(table, grow_params("id3", thresholds="midpoint")) == backend.LEVELWISE
    larger = shaped(**LARGER_DIGITS)
    assert backend.choose(larger, grow_params("c45")) == backend.LEVELWISE
    assert backend.choose(larger, grow_params("cart")) == backend.CART
    assert backend.compile_seconds(larger, grow_params("c45"), backend.LEVELWISE, pruning=True) == 0


def test_a_classroom_table_is_not_held_up_by_a_compile_the_reference_beats(machine):
    """Cold cache: the reference is done before the level-wise kernels would have compiled; with
    only C4.5's own kernels (some 7 s) to compile, compiling them is sooner for a table the
    reference takes longer on (15,000 rows of digits' shape: about 11 s)."""
    table, longer = shaped(**LARGER_DIGITS), shaped(15_000, 64, 0, 10)
    reference = estimates.reference_seconds("c45", table)
    assert reference < compiling.compile_seconds(["c45"]) < estimates.reference_seconds("c45", longer)
    assert estimates.reference_seconds("c45", longer) < compiling.compile_seconds(["levelwise", "c45"])
    for shape in (table, longer):
        assert backend.choose(shape, grow_params("c45")) == backend.REFERENCE
    assert backend.choose(shaped(**DIGITS), grow_params("cart")) == backend.REFERENCE
    assert backend.compile_seconds(table, grow_params("c45"), backend.REFERENCE, pruning=False) == 0
    machine(["levelwise"])
    assert backend.choose(table, grow_params("c45")) == backend.REFERENCE
    assert backend.choose(longer, grow_params("c45")) == backend.LEVELWISE


def test_a_table_the_reference_would_take_minutes_on_compiles(machine):
    """50,000 rows x 100 attributes x 30 classes: compiling once beats the reference at every run."""
    table = shaped(**WIDE)
    assert estimates.reference_seconds("c45", table) > compiling.SOONER_LIMIT
    assert backend.choose(table, grow_params("c45")) == backend.LEVELWISE
    # (the pruning's kernels are left to the grown tree: by the table alone its reference would prune
    # sooner than they compile)
    seconds = backend.compile_seconds(table, grow_params("c45"), backend.LEVELWISE, pruning=True)
    assert seconds == compiling.compile_seconds(["levelwise", "c45"])


def test_with_a_spare_core_kernels_not_cached_compile_beside_the_reference(machine, monkeypatch):
    """Cold cache, a core to spare: every table the engines would grow sooner once their kernels are
    cached is grown by the reference while they compile in a forked process (``grow_watched``), the
    table of minutes too; a small table, another request, a narrated or binned growth, or kernels
    already cached fork nothing."""
    monkeypatch.setattr(workers, "may_fork_beside", lambda: True)
    wide, larger = shaped(**WIDE), shaped(**LARGER_DIGITS)
    for table, algorithm, engine in ((wide, "c45", backend.LEVELWISE), (larger, "cart", backend.CART)):
        params = grow_params(algorithm)
        assert backend.choose(table, params) == backend.REFERENCE
        assert backend.beside_engine(table, params, "auto") == engine
        assert backend.compile_seconds(table, params, backend.REFERENCE, pruning=False) == 0  # (nothing waits)
        assert backend.beside_engine(table, params, "reference") == backend.REFERENCE
        assert backend.beside_engine(table, params, "auto", narrate=True) == backend.REFERENCE
        assert backend.choose(table, params, "compiled") == engine  # asked for: compiled here and now
    assert backend.beside_engine(wide, grow_params("c45", max_bins=16), "auto") == backend.REFERENCE
    assert backend.beside_engine(shaped(**IRIS), grow_params("c45"), "auto") == backend.REFERENCE
    machine(["levelwise", "c45"])
    assert backend.beside_engine(wide, grow_params("c45"), "auto") == backend.REFERENCE
    assert backend.choose(wide, grow_params("c45")) == backend.LEVELWISE


def test_the_reference_cost_grows_with_rows_attributes_and_classes():
    base = estimates.reference_seconds("c45", shaped(2000, 10))
    assert estimates.reference_seconds("c45", shaped(4000, 10)) > base
    assert estimates.reference_seconds("c45", shaped(2000, 20)) > base
    assert estimates.reference_seconds("c45", shaped(2000, 10, classes=10)) > base
    assert estimates.reference_seconds("c45", shaped(2000, 10, classes=2)) == base  # (2 and 3 classes alike)


def test_cross_validation_counts_its_folds_and_loads_the_engines_once(machine):
    """Ten growths of a mid-sized table pay the engines' start once: worth it where one growth is not."""
    table = shaped(3000, 40)
    params = grow_params("c45")
    assert not estimates.engine_pays("c45", table)
    assert estimates.engine_pays("c45", table, runs=10)
    machine(["levelwise", "c45", "prune"])
    assert backend.choose(table, params) == backend.REFERENCE
    backend.prepare(table, params, "auto", 10)
    assert estimates.STARTED
    assert backend.choose(table, params) == backend.LEVELWISE  # each fold: no start of its own


def test_cross_validation_loads_nothing_for_a_cold_cache_or_another_request(machine):
    table, params = shaped(600, 20), grow_params("c45")
    backend.prepare(table, params, "auto", 10)  # nothing cached
    backend.prepare(table, params, "reference", 10)
    machine(["levelwise", "c45", "prune"])
    backend.prepare(shaped(**IRIS), params, "auto", 10)  # the reference is sooner even ten times
    assert not estimates.STARTED


@pytest.mark.parametrize("algorithm", ["c45", "id3", "cart"])
def test_every_choice_grows_the_same_tree(algorithm):
    """The engine chosen changes how soon, never what: the reference's tree and the engine's are one."""
    from dtcli.induction import PruneParams, train
    from dtcli.render.tree import text_tree

    rng = np.random.default_rng(3)
    table = shaped(700, 6, nominal=2, classes=4, seed=3)
    table.y[:] = (table.columns[0] > 8).astype(int) + (table.columns[6] == 1) + (rng.random(700) < 0.1)
    params = grow_params(algorithm, **({"thresholds": "midpoint"} if algorithm == "id3" else {}))
    trees = [text_tree(train(table, params, PruneParams(), engine=e)[0]) for e in ("reference", "compiled", "auto")]
    assert trees[0] == trees[1] == trees[2]


@pytest.mark.parametrize("shape", [WEATHER, IRIS])
def test_a_small_tables_folds_run_in_one_process(shape):
    """Forking workers costs more than the folds of weather or iris take: they run one after the other."""
    from dtcli.pipeline.crossval import Scheme

    table = shaped(**shape)
    assert estimates.folds_in_one_process("c45", table, 10)
    assert Scheme(10, None, None, None).workers(alone=True) == 1
    assert Scheme(10, None, None, 3).workers(alone=True) == 3  # --jobs given: as given


BREAST_CANCER = {"rows": 286, "numeric": 0, "nominal": 9, "classes": 2}  # Weka's breast-cancer's shape


def test_a_spare_core_takes_half_the_folds_of_all_but_the_smallest_tables():
    """On an idle 2-core machine Weka's breast-cancer took 0.70 s in two processes against 0.94 s in
    one; weather's folds are too small to share."""
    table = shaped(**BREAST_CANCER)
    assert estimates.folds_in_one_process("c45", table, 10)  # a busy machine: one process
    assert not estimates.folds_in_one_process("c45", table, 10, spare=True)
    assert estimates.folds_in_one_process("c45", shaped(**WEATHER), 10, spare=True)


@pytest.mark.parametrize(("cores", "running", "spare"), [(2, 1, True), (2, 2, False), (4, 3, True), (4, 5, False),
                                                          (1, 1, False)])  # fmt: skip
def test_a_spare_core_is_one_no_runnable_process_holds(monkeypatch, tmp_path, cores, running, spare):
    """Linux says how many processes are runnable right now (this one among them)."""
    from dtcli.induction import workers

    loadavg = tmp_path / "loadavg"
    loadavg.write_text(f"3.50 3.00 2.00 {running}/230 4242\n")  # (the averages lag: not read)
    monkeypatch.setattr(workers, "LOADAVG", str(loadavg))
    monkeypatch.setattr(workers, "usable_cores", lambda: cores)
    assert workers.spare_core() is spare


@pytest.mark.parametrize(("load", "spare"), [(0.3, True), (1.0, True), (1.4, False)])
def test_without_proc_the_load_average_says_whether_a_core_is_spare(monkeypatch, tmp_path, load, spare):
    from dtcli.induction import workers

    monkeypatch.setattr(workers, "LOADAVG", str(tmp_path / "absent"))
    monkeypatch.setattr(workers, "usable_cores", lambda: 2)
    monkeypatch.setattr(workers.os, "getloadavg", lambda: (load, 0.0, 0.0))
    assert workers.spare_core() is spare


def test_no_load_average_is_no_spare_core(monkeypatch, tmp_path):
    from dtcli.induction import workers

    def missing():
        raise OSError("no load average here")

    monkeypatch.setattr(workers, "LOADAVG", str(tmp_path / "absent"))
    monkeypatch.setattr(workers.os, "getloadavg", missing)
    assert workers.spare_core() is False


def test_a_larger_tables_folds_run_on_every_core(monkeypatch):
    """digits' folds take seconds each: one worker a core (--jobs unset)."""
    from dtcli.induction import workers
    from dtcli.pipeline.crossval import Scheme

    monkeypatch.setattr(workers, "usable_cores", lambda: 4)
    table = shaped(**DIGITS)
    assert not estimates.folds_in_one_process("c45", table, 10)
    assert not estimates.folds_in_one_process("cart", shaped(rows=2000, numeric=20), 10)
    assert Scheme(10, None, None, None).workers(alone=False) == 4
    assert Scheme(10, None, None, 1).workers(alone=False) == 1


SOYBEAN = {"rows": 683, "numeric": 0, "nominal": 35, "classes": 19}  # Weka's soybean's shape
FOLDS = {"rows": 1500, "numeric": 60}  # a table whose ten folds the engines grow sooner, each in a blink


def test_folds_the_engines_grow_run_in_one_process(machine):
    """Once the engines are loaded for the folds, a fold takes them a few hundredths of a second: forked
    workers would each load the kernels again. (Weka's soybean: its folds are sooner by the reference,
    0.16 s each, than by the engines with their start: 1.8 s against 1.5 s for its cross-validation.)"""
    table, params = shaped(**FOLDS), grow_params("c45")
    assert not estimates.folds_in_one_process("c45", table, 10)  # by the reference: 10 x 0.8 s
    machine(["levelwise", "c45", "prune"])
    backend.prepare(shaped(**SOYBEAN), params, "auto", 10)
    assert estimates.STARTED == []
    backend.prepare(table, params, "auto", 10)
    assert estimates.STARTED == [10]
    assert estimates.folds_in_one_process("c45", table, 10)
    assert not estimates.folds_in_one_process("c45", shaped(**DIGITS), 10)  # 1.2 s of the engine's own: forks


def test_the_folds_prunings_run_compiled_when_their_kernels_load_once(machine):
    """One pruning of such a table is sooner by the reference (0.3 s against loading the kernels),
    ten in one process are not: the kernels load once, then each pruning costs a few hundredths."""
    table, params = shaped(**FOLDS), grow_params("c45")
    machine(["levelwise", "c45", "prune"])
    assert not backend.compiled_pruning(table, "auto", started=True)
    backend.prepare(table, params, "auto", 10)
    assert backend.compiled_pruning(table, "auto", started=True)
    assert backend.compiled_pruning(table, "auto")
    assert not backend.compiled_pruning(table, "reference")
    assert not backend.compiled_pruning(shaped(**IRIS), "auto", started=True)  # iris: 10 x 2 ms, sooner as it is


# the grown trees of two runs measured (splits, the cases they route): 50,000 rows of WIDE's shape
# (the reference pruned it in 1.0 s, the compiled pruner in 0.1 s) and Weka's credit-g (0.04 s)
WIDE_GROWN = (3369, 318_139.0)
CREDIT_GROWN = (107, 5794.0)


def test_the_grown_tree_says_what_its_pruning_costs(machine):
    """The table alone guesses the reference's pruning of WIDE at over 20 s; the grown tree says
    about 1.7 s. So on a machine without the pruning's kernels the reference prunes it rather than
    wait for them to compile (about 29 s), and with them cached, once numba is loaded by the growth,
    they prune it."""
    table = shaped(**WIDE)
    assert estimates.reference_seconds("prune", table) > 10 * estimates.pruning_seconds(*WIDE_GROWN)
    assert 0.8 < estimates.pruning_seconds(*WIDE_GROWN) < 3.0
    machine(["levelwise", "c45"])
    assert not backend.compiled_pruning(table, "auto", True, WIDE_GROWN)
    assert backend.compiled_pruning(table, "compiled", True, WIDE_GROWN)  # (asked for: compiled, whatever it costs)
    assert backend.pruning_compile_seconds(table) == compiling.compile_seconds(["prune"])  # (announced then)
    machine(["prune"])
    assert backend.pruning_compile_seconds(table) == 0
    assert backend.compiled_pruning(table, "auto", True, WIDE_GROWN)
    assert not backend.compiled_pruning(table, "auto", False, WIDE_GROWN)  # numba's start alone: 1.5 s
    assert not backend.compiled_pruning(table, "auto", True, CREDIT_GROWN)  # a few hundredths by the reference


def test_grown_size_counts_splits_and_their_cases_both_ways():
    """The same counts from a Node tree and from the level-wise engine's arrays."""
    from dtcli.induction import train
    from dtcli.induction.grow.flat import from_nodes

    table = shaped(400, 3, 2)
    tree, _ = train(table, grow_params("c45"), engine="reference")
    root = tree.root
    splits = [node for node in root.walk() if node.children]
    expected = (len(splits), float(sum(node.counts.sum() for node in splits)))
    assert expected[0] > 0
    assert backend.grown_size(root=root) == expected
    assert backend.grown_size(flat=from_nodes(root, table.attributes)) == expected
