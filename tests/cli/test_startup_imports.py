"""What `dtree gain` and `dtree train` import on the sample data: only what the run uses (gain: no rich).

Each command runs in a fresh interpreter under ``python -X importtime``, which names every module
imported on standard error. The compiled engines (numba), pandas, logging, threads pools and the
writing and pruning machinery a small run does not use must not be among them: each costs start-up
time that scripts calling dtree thousands of times pay again and again. A fact check, not a timing.
Last, the garbage collector, held while the modules load, must be on again when the work begins.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEATHER = str(ROOT / "sample_data" / "weather.csv")
IRIS = str(ROOT / "sample_data" / "iris.csv")

# Never imported by a small run: the compiled engines and what only they use, libraries dtree does not
# use on this path, and modules only other paths need (writing a file, pruning, masked arrays).
NEVER = (
    "numba",
    "llvmlite",
    "pandas",
    "logging",
    "concurrent.futures",
    "multiprocessing",
    "asyncio",
    "numpy.ma",  # numpy 2's np.unique imports it: dtree's small paths avoid np.unique
    "tempfile",  # only when an output file is written
    "gzip",  # only for a compressed input
    "shutil",  # only for a terminal's width
    "dtcli.io.arff.reader",  # only for ARFF input
    "dtcli.io.parquet.reader",  # only for Parquet input
    "pyarrow",
    "dtcli.induction.levelwise.engine",
    "dtcli.induction.cart.engine",
    "dtcli.induction.kernels.cache",
    "dtcli.induction.compiling",  # whether kernels are cached: only a table large enough for them asks
    "pathlib",  # only where a file is written or the kernels' cache is looked at
    "urllib",  # pathlib's
    "rich.progress",  # no progress display on a pipe
    "rich.live",
    "rich.pretty",
    "rich.traceback",
    "rich.syntax",
    "rich.markdown",
)
# Besides, `dtree gain` grows nothing: no tree, no pruning, no statistics module (C4.5's confidence bound).
GAIN_NEVER = (
    "dtcli.induction.grow.grower",
    "dtcli.induction.grow.flat",
    "dtcli.induction.prune.pessimistic.prune",
    "dtcli.model.format.model",
    "rich.tree",
    "statistics",
    "json",
    "hashlib",  # the data's fingerprint: only a trained model records it
    "dtcli.induction.algorithms",  # the presets, the typed options and costs: gain's options need only their
    "dtcli.induction.params",  # names (induction/names.py)
    "dtcli.induction.criteria.costs",  # only with --costs
    "dtcli.induction.prune.collapse",
)
# ID3 does not prune, and without -o no model file is written.
ID3_NEVER = ("dtcli.induction.prune.pessimistic.prune", "dtcli.model.format.model")

RUNS = {
    "gain": (["gain", WEATHER, "--ignore", "Day"], NEVER + GAIN_NEVER),
    # gain -a cart stars the split the CART grower makes (grow.grower.node_choice): it needs the grower
    "gain-cart": (["gain", "-a", "cart", IRIS], NEVER),
    "train": (["train", WEATHER, "--ignore", "Day"], NEVER + ID3_NEVER),
    "train-c45": (["train", "-a", "c45", IRIS], NEVER),
    "train-cart": (["train", "-a", "cart", IRIS], NEVER + ("statistics",)),
    # a small table's folds run one after the other in this process: no workers forked
    "evaluate-cv": (["evaluate", "-a", "c45", IRIS, "--cv", "10"], NEVER),
}


def imported(args: list[str], tmp_path: Path) -> set[str]:
    """The modules ``python ARGS`` imports (it must succeed)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "numba"), HOME=str(tmp_path))
    for name in ("DTREE_ENGINE", "COLUMNS", "LINES"):  # (pytest-xdist's workers set COLUMNS=80: not a pipe's width)
        env.pop(name, None)
    run = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [line for line in run.stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}  # the first line is the header


@pytest.fixture(scope="module")
def libraries(tmp_path_factory) -> set[str]:
    """What importing dtree's libraries imports by itself (numpy 1.x imports numpy.ma, say): not dtree's doing."""
    return imported(["-c", "import numpy, click, rich.console, rich.table"], tmp_path_factory.mktemp("libraries"))


@pytest.mark.parametrize("name", sorted(RUNS))
def test_small_runs_import_only_what_they_use(name, libraries, tmp_path):
    args, never = RUNS[name]
    modules = imported(["-m", "dtcli", *args], tmp_path)
    assert "dtcli.render.console" in modules, "the importtime report was not read"
    unwanted = sorted(m for m in never if m in modules and m not in libraries)
    assert not unwanted, f"dtree {' '.join(args)} imports {', '.join(unwanted)}"


def test_gain_on_a_pipe_imports_no_rich(tmp_path):
    """`dtree gain`'s table fits a pipe's 120 columns: it is written as rich would, without rich."""
    modules = imported(["-m", "dtcli", *RUNS["gain"][0]], tmp_path)
    assert "dtcli.render.console" in modules, "the importtime report was not read"
    assert not sorted(m for m in modules if m.split(".")[0] == "rich")


# Run in a fresh interpreter: dtree's entry point, with the gain report's functions wrapped to note
# whether the garbage collector is on when the command's work runs.
GC_PROBE = """
import gc, sys
import dtcli.plain.report as plain_report
import dtcli.explain.report as report
from dtcli.cli import main

def probed(work):
    def probe(*args, **kwargs):
        sys.stderr.write(f"collector on: {gc.isenabled()}; frozen: {gc.get_freeze_count() > 0}\\n")
        return work(*args, **kwargs)
    return probe

report.gain_report = probed(report.gain_report)  # (the full path)
plain_report.plain_gain_report = probed(plain_report.plain_gain_report)  # (the plain path: plain/gain.py)
sys.argv = ["dtree", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("plain", ["1", "0"])
def test_the_collector_is_on_again_when_the_work_begins(tmp_path, plain):
    """main() holds the garbage collector while the command's modules load; a long training run
    needs it back: Command.invoke turns it on (and freezes what start-up made) before the work
    (on dtree gain's plain path and on its full path, DTREE_PLAIN=0)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CACHE_DIR=str(tmp_path / "numba"), HOME=str(tmp_path))
    env["DTREE_PLAIN"] = plain
    run = subprocess.run(
        [sys.executable, "-c", GC_PROBE, *RUNS["gain"][0]],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "collector on: True; frozen: True" in run.stderr


def test_train_quiet_imports_no_rich(tmp_path):
    """-q prints no tree: nothing of rich (the summary line counts the tree's nodes without it)."""
    modules = imported(["-m", "dtcli", "train", "-a", "c45", IRIS, "-q"], tmp_path)
    assert "dtcli.render.console" in modules, "the importtime report was not read"
    assert not sorted(m for m in modules if m.split(".")[0] == "rich")


def test_predict_on_arff_writes_its_rows_without_pandas(tmp_path):
    """The rows of an ARFF file (not echoed as read) are written anew by the csv module, as pandas wrote them."""
    model = str(tmp_path / "weather.json")
    weather_arff = str(ROOT / "sample_data" / "weather.arff")
    imported(["-m", "dtcli", "train", weather_arff, "-q", "-o", model], tmp_path)
    modules = imported(["-m", "dtcli", "predict", model, weather_arff, "--proba"], tmp_path)
    assert "dtcli.io.arff.reader" in modules, "the importtime report was not read"
    assert not [m for m in ("pandas", "numpy.ma", "rich") if m in modules]
