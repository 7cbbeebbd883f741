"""Which kernels a run needs and whether the cache holds them: the engines wait for no compile the reference beats."""

from __future__ import annotations

import glob
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dtcli.induction import backend, compiling, estimates, grow_params, workers
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table


def table(n: int, numeric: bool = True) -> Table:
    rng = np.random.default_rng(0)
    attributes = [Attribute("c", NOMINAL, ("a", "b", "c"))] + ([Attribute("x", NUMERIC)] if numeric else [])
    columns = [rng.integers(0, 3, n).astype(np.int32)] + ([rng.normal(0, 1, n)] if numeric else [])
    return Table(Schema(tuple(attributes), Attribute("y", NOMINAL, ("p", "q"))), columns, rng.integers(0, 2, n))


@pytest.fixture
def empty_cache(monkeypatch, tmp_path):
    """A new machine: NUMBA_CACHE_DIR names an empty directory (numba itself is not pointed at it), in a
    process whose engines no cross-validation has loaded (``estimates.STARTED``, which an earlier test in
    the same worker may have left set)."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("DTREE_PREBUILT_KERNELS", "0")  # (nothing copied in from an install's build)
    monkeypatch.setattr(estimates, "STARTED", [])
    monkeypatch.setattr(workers, "may_fork_beside", lambda: False)  # (one core: see test_engine_choice.py)
    return tmp_path / "numba"


def cache_kernels(sets: list[str]) -> None:
    """Index files where numba writes them for the kernels of ``sets`` (as if they had compiled)."""
    from dtcli.induction.kernels.cache import chosen_dir

    for name in sets:
        for file, function, _ in compiling.KERNEL_SETS[name]:
            index = compiling.index_glob(chosen_dir(), file, function).replace("*", "7")
            Path(index).parent.mkdir(parents=True, exist_ok=True)
            Path(index).touch()


def test_an_empty_cache_holds_no_set_and_index_files_fill_it(empty_cache):
    assert compiling.uncached(list(compiling.KERNEL_SETS), table(10)) == list(compiling.KERNEL_SETS)
    cache_kernels(["levelwise", "c45"])
    assert compiling.uncached(["levelwise", "c45", "prune"], table(10)) == ["prune"]


def test_kernels_a_run_does_not_call_need_not_be_cached(empty_cache):
    """Without numeric attributes the sort and the numeric scans never run."""
    from dtcli.induction.kernels.cache import chosen_dir

    for file, function, when in compiling.KERNEL_SETS["c45"]:
        if when != "numeric":
            index = Path(compiling.index_glob(chosen_dir(), file, function).replace("*", "7"))
            index.parent.mkdir(parents=True, exist_ok=True)
            index.touch()
    assert compiling.uncached(["c45"], table(10, numeric=False)) == []
    assert compiling.uncached(["c45"], table(10)) == ["c45"]


def test_index_files_are_named_as_numba_names_them(tmp_path):
    """A real compile (in a fresh process and cache) leaves the index file the check looks for."""
    pytest.importorskip("numba")
    code = (
        "import numpy as np\n"
        "from dtcli.induction.kernels.cache import use_cache_dir\n"
        "use_cache_dir()\n"
        "from dtcli.induction.kernels.sort import stable_order\n"
        "stable_order(np.array([2.0, 1.0]))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), DTREE_PREBUILT_KERNELS="0")
    root = Path(compiling.__file__).resolve().parent.parent.parent
    env["PYTHONPATH"] = str(root)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=tmp_path)
    os.environ["NUMBA_CACHE_DIR"], before = str(tmp_path), os.environ.get("NUMBA_CACHE_DIR")
    try:
        from dtcli.induction.kernels.cache import chosen_dir

        assert glob.glob(compiling.index_glob(chosen_dir(), "kernels/sort.py", "stable_order"))
    finally:
        os.environ.pop("NUMBA_CACHE_DIR") if before is None else os.environ.update(NUMBA_CACHE_DIR=before)


@pytest.mark.compiled
def test_a_small_table_is_grown_by_the_reference_until_the_kernels_are_cached(empty_cache):
    params = grow_params("c45")
    small, large = table(150_000), table(5_000_000 // 2)  # (the reference: about 2 s and 40 s)
    assert backend.choose(small, params) == backend.REFERENCE  # sooner than compiling
    assert backend.choose(large, params) == backend.LEVELWISE  # (its columns are never read here)
    pruning = ["prune"] if backend.compiled_pruning(large) else []  # (the reference may prune it sooner)
    expected = compiling.compile_seconds(["levelwise", "c45", *pruning])
    assert backend.compile_seconds(large, params, backend.LEVELWISE, pruning=True) == expected
    assert not backend.compiled_pruning(small)
    cache_kernels(["levelwise", "c45", "prune"])
    assert backend.choose(small, params) == backend.LEVELWISE  # cached: the engine is sooner
    assert backend.compiled_pruning(large) and not backend.compiled_pruning(table(1_000), started=True)
    assert backend.compile_seconds(small, params, backend.LEVELWISE, pruning=True) == 0
    assert backend.choose(small, params, "compiled") == backend.LEVELWISE
    assert backend.choose(table(1_000), params) == backend.REFERENCE  # sooner than the engine starts


def test_prediction_waits_for_no_compile_numpy_beats(empty_cache):
    """Not cached: numpy predicts unless the work outweighs the kernel's compile; cached: by size."""
    from dtcli.induction.backend import PREDICT_MIN_WORK, compiled_prediction

    assert not compiled_prediction(PREDICT_MIN_WORK, 1)  # numpy: about a second; the compile takes longer
    assert not compiled_prediction(10**9, 1, "reference")
    if backend.available():
        assert compiled_prediction(10**9, 1)  # numpy would take minutes
        cache_kernels(["predict"])
        assert compiled_prediction(PREDICT_MIN_WORK, 1)
        assert backend.prediction_compile_seconds() == 0


@pytest.mark.compiled
def test_predict_announces_the_kernel_compile(empty_cache):
    from trees import fit, generated

    from dtcli.induction.predict.apply import predict_proba

    data = generated(2000, 3)
    tree, _ = fit(data, "cart")
    heard = []
    expected = predict_proba(tree, data, engine="reference")
    got = predict_proba(tree, data, engine="compiled", compiling=heard.append)
    assert heard == [compiling.compile_seconds(["predict"])] and np.array_equal(got, expected)


def test_every_kernel_named_in_the_sets_exists():
    """A renamed kernel would leave the cache check looking for a file numba never writes."""
    import ast

    for kernels in compiling.KERNEL_SETS.values():
        for file, function, when in kernels:
            tree = ast.parse((compiling.HERE / file).read_text())
            assert function in {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}, file
            assert when in ("always", "numeric", "nominal")
