"""A first run on a new machine says it is compiling; ``dtree warm-up`` compiles ahead and says what it did."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dtcli.cli.warmup import JOBS, sample_csv

ROOT = Path(__file__).resolve().parent.parent.parent
NOTICE = "compiling kernels (once per machine, about "


def dtree(*args, cache: Path, cwd: Path):
    """``python -m dtcli ARGS`` in a fresh process whose kernel cache is ``cache`` (stderr a pipe)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT), DTREE_PREBUILT_KERNELS="0")
    return subprocess.run(
        [sys.executable, "-m", "dtcli", *map(str, args)], env=env, cwd=cwd, capture_output=True, text=True
    )


@pytest.mark.compiled
def test_a_cold_compile_is_announced_once_on_stderr(tmp_path):
    """The smallest set of kernels: ID3 on nominal attributes (no sorting, no numeric scans); said
    with -q too (it silences the tree and the notes, not a wait of many seconds)."""
    rng = np.random.default_rng(0)
    rows = ["a,b,y"] + [f"v{rng.integers(0, 3)},w{rng.integers(0, 2)},k{rng.integers(0, 2)}" for _ in range(300)]
    data = tmp_path / "small.csv"
    data.write_text("\n".join(rows) + "\n")
    model = tmp_path / "m.json"
    first = dtree("train", data, "--engine", "compiled", "-q", "-o", model, cache=tmp_path / "c", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stderr.count(NOTICE) == 1 and first.stderr.startswith(NOTICE), first.stderr
    again = dtree("train", data, "--engine", "compiled", "-o", tmp_path / "m.json", cache=tmp_path / "c", cwd=tmp_path)
    assert again.returncode == 0 and NOTICE not in again.stderr


def test_the_sample_table_reaches_every_kernel():
    """Nominal and numeric attributes, missing values in both, three classes, a numeric target."""
    lines = sample_csv().splitlines()
    header, rows = lines[0].split(","), [line.split(",") for line in lines[1:]]
    assert header == ["c0", "c1", "x0", "x1", "x2", "label", "value", "id"]
    assert len({row[7] for row in rows}) > 127
    assert any(row[0] == "?" for row in rows) and any(row[2] == "?" for row in rows)
    assert {row[5] for row in rows} == {"k0", "k1", "k2"}
    targets = {options["algorithm"] for _, _, options in JOBS}
    assert targets == {"c45", "id3", "cart"} and any(target == "value" for _, target, _ in JOBS)


def test_warm_up_is_listed_and_has_help(run):
    assert "warm-up" in run("--help").stdout
    result = run("warm-up", "--help")
    assert result.exit_code == 0 and "Docker" in result.stdout


def test_a_jobs_line_says_what_it_compiled_and_what_it_left():
    """A set whose kernels the small table did not all call is not said to be compiled, nor cached."""
    from dtcli.cli.warmup import job_line

    assert job_line("C4.5", 2.5, ["levelwise", "c45"], []) == "C4.5: compiled levelwise, c45 in 2.5 s"
    assert job_line("C4.5", 0.4, [], []) == "C4.5: already compiled, ran in 0.4 s"
    assert job_line("CART", 849.8, [], ["cart-side"]) == (
        "CART: ran in 849.8 s; not all of cart-side was called, so not all of it is cached"
    )


def test_cart_jobs_hand_nodes_over_on_the_small_table():
    """The sample table's CART jobs never end a slice of SLICE_ROWS rows: warm-up cuts slices of a few
    rows so that threads hand nodes over (``carve``) and that kernel is compiled too, then puts them back."""
    from dtcli.cli.warmup import handing_over
    from dtcli.induction.cart import parallel

    def sizes() -> tuple[int, int]:
        return parallel.SLICE_ROWS, parallel.CARVE_ROWS

    kept, rows = sizes(), len(sample_csv().splitlines()) - 1
    with handing_over(True):
        slice_rows, carve_rows = sizes()
        assert slice_rows < rows // 4 and carve_rows < slice_rows
    assert sizes() == kept
    with handing_over(False):
        assert sizes() == kept


@pytest.mark.compiled
def test_the_cart_classification_job_caches_every_kernel_of_its_set(tmp_path):
    """After warm-up's CART classification job no kernel of cart-side is left uncached (``carve`` was
    never called on the small table, so every later CART run counted the set as not cached)."""
    from dtcli.induction.workers import usable_cores

    if usable_cores() < 2:
        pytest.skip("CART grows on one thread here: cart-side is not used")
    path = tmp_path / "sample.csv"
    path.write_text(sample_csv())
    # in a process of its own, as warm-up runs each job: this one may hold kernels compiled by other
    # tests while they pointed numba at a cache of their own (a kernel compiled once is not saved again)
    script = (
        "import json, sys\n"
        "from dtcli.cli.warmup import JOBS, warm\n"
        "job = next(job for job in JOBS if job[0] == 'CART classification')\n"
        "print(json.dumps(warm(job, sys.argv[1])))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    _, _, left, same = json.loads(done.stdout)
    assert left == [] and same


def test_the_jobs_without_variants_reach_every_set_and_the_variants_only_variants(tmp_path):
    """The tests' warm-up (without --variants) runs the jobs ``is_variant`` leaves: between them they
    call every set of kernels a training run calls; each variant job compiles a variant of a set."""
    from dtcli.cli.common import load_training_table
    from dtcli.cli.warmup import is_variant
    from dtcli.induction import backend, compiling, grow_params

    path = tmp_path / "sample.csv"
    path.write_text(sample_csv())
    reached = set()
    for title, target, options in JOBS:
        options = dict(options)
        algorithm = options.pop("algorithm")
        wide = options.pop("wide", False)
        if is_variant((title, target, {"wide": wide, **options})):
            assert wide or options.get("long") or options.get("short"), title
            continue
        other = "value" if target == "label" else "label"
        task = "auto" if algorithm == "cart" else "classification"
        table = load_training_table(str(path), target, (other, "id"), ("id",), None, task)
        params = grow_params(algorithm, **{k: v for k, v in options.items() if k != "prune"})
        reached.update(backend.kernel_sets(table, params, backend.choose(table, params, "compiled")))
        reached.update(["prune"] if algorithm == "c45" and options.get("prune") != "none" else [])
    from dtcli.induction.workers import usable_cores

    expected = set(compiling.KERNEL_SETS) - {"predict"} - ({"cart-side"} if usable_cores() < 2 else set())
    assert reached == expected
