#!/usr/bin/env python3
"""Benchmark dtree against scikit-learn, YDF's CART learner and Weka on the same tables, in one run.

    python tests/benchmarks/run_benchmarks.py [--sizes 20000 100000 1000000] [--repeat N]
        [--sklearn-python PATH] [--ydf-python PATH] [--weka-jar PATH] [--dtree COMMAND]
        [--keep DIR] [--make-data PATH] [--skip JOB@ROWS ...] [--startup-runs N] [--cold-rows N]

The peers are not dependencies of dtree: make a scratch environment for them once,

    python3 -m venv /tmp/ref-venv && /tmp/ref-venv/bin/pip install ydf scikit-learn pandas

and pass --sklearn-python /tmp/ref-venv/bin/python --ydf-python /tmp/ref-venv/bin/python (a peer
whose Python is not given is skipped; Weka runs when java and the jar are present).

Tables come from ../shared/bench/make_data.py (mixed nominal/numeric, 3 classes, 1% missing) and are
written to a temporary directory, as every model and prediction file (never to the repository). Every
tool runs as its own process, end to end from the file: wall time, CPU time (user + system) and peak
memory (max RSS, from wait4) are measured for each. At each size the jobs run in turn, dtree's beside
its peers' (A, B, C, A, B, C ... with --repeat), and the median run is kept. Measured:

- training: dtree C4.5 (pruned, as J48; unpruned; binned) and CART (unpruned) against scikit-learn's
  DecisionTreeClassifier (entropy for C4.5, Gini for CART), YDF's CartLearner (unpruned:
  validation_ratio=0, max_depth=-1, min_examples=2, trained from the CSV path) and Weka's J48;
- prediction with the large CART model: dtree predicting with its own model of the table against YDF
  predicting with its own, both writing every row's prediction to a file;
- the first run on a new machine: dtree trains the smallest table (--cold-rows) with each algorithm in
  a fresh home directory and a fresh, empty NUMBA_CACHE_DIR (kernels compile), and whether the
  "compiling kernels" announcement appeared on standard error;
- start-up: `dtree gain` and `dtree train` on the sample data against Weka's Id3 (its JVM start
  included) on weather.nominal.arff, in turn, median of --startup-runs each.

The table printed at the end gives each measurement with the ratios dtree / peer (time, and memory
with "mem"); then issue 18's targets, each marked met or MISSED (the per-table ones on the largest
table). Not part of the default test run.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from peers import SKLEARN_FIT, YDF_FIT, YDF_PREDICT, Run, leaves, median_run, run, to_arff
from situations import cold_runs, machine, startup_runs
from verdicts import verdicts

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"

# Each ratio column: (the dtree job, the peer job, how the table names the peer).
RATIOS = {
    "c45": (("sklearn-entropy", "scikit-learn"), ("ydf", "YDF"), ("j48", "J48")),
    "cart": (("sklearn-gini", "scikit-learn"), ("ydf", "YDF")),
    "predict-cart": (("ydf-predict", "YDF"),),
}

# The order of a round: each dtree job next to its peers; a model before the prediction that reads it.
ORDER = ["c45", "sklearn-entropy", "j48", "cart", "ydf", "sklearn-gini", "c45u", "bins"]
ORDER += ["predict-cart", "ydf-predict", "predict-c45"]


@dataclass
class Job:
    """One process to time: its key (for ratios and targets), the name the table shows, the command."""

    key: str
    name: str
    command: list[str]
    results: list[Run] = field(default_factory=list)


def dtree_jobs(dtree: list[str], data: Path, work: Path, size: int) -> list[Job]:
    """dtree's training and prediction jobs on one table (the models go to ``work``)."""
    c45, cart = str(work / f"c45-{size}.json"), str(work / f"cart-{size}.json")
    train, predict = [*dtree, "train", str(data), "-q"], [*dtree, "predict", "-q"]
    return [
        Job("c45", "dtree c45 (pruned, as J48)", [*train, "-a", "c45", "-o", c45]),
        Job("cart", "dtree cart --no-prune", [*train, "-a", "cart", "--no-prune", "-o", cart]),
        Job("c45u", "dtree c45 --no-prune", [*train, "-a", "c45", "--no-prune", "-o", str(work / "c45u.json")]),
        Job("bins", "dtree c45 --max-bins 256", [*train, "-a", "c45", "--max-bins", "256", "-o", str(work / "b.json")]),
        Job("predict-cart", "dtree predict (cart model)", [*predict, cart, str(data), "-o", str(work / "p-cart.csv")]),
        Job("predict-c45", "dtree predict (c45 model)", [*predict, c45, str(data), "-o", str(work / "p-c45.csv")]),
    ]  # fmt: skip


def peer_jobs(args, data: Path, work: Path, size: int) -> list[Job]:
    """The peers' jobs on one table: those whose Python or jar was given and that were not skipped."""
    jobs = []
    if args.sklearn_python:
        fit = [args.sklearn_python, "-c", SKLEARN_FIT, str(data)]
        jobs.append(Job("sklearn-entropy", "scikit-learn tree (entropy, leaf 2)", [*fit, "entropy", "2"]))
        jobs.append(Job("sklearn-gini", "scikit-learn tree (gini, leaf 1)", [*fit, "gini", "1"]))
    if args.ydf_python:
        model = str(work / f"ydf-{size}")
        fit = [args.ydf_python, "-c", YDF_FIT, str(data), "label", model]
        jobs.append(Job("ydf", "YDF CartLearner (unpruned)", fit))
        predict = [args.ydf_python, "-c", YDF_PREDICT, model, str(data), str(work / "p-ydf.csv")]
        jobs.append(Job("ydf-predict", "YDF predict (its cart model)", predict))
    if args.java:
        arff = work / f"bench-{size}.arff"
        if not arff.exists():
            to_arff(data, arff)
        j48 = ["java", "-Xmx8g", "-cp", args.weka_jar, "weka.classifiers.trees.J48", "-no-cv", "-t", str(arff)]
        jobs.append(Job("j48", "Weka J48 (pruned)", j48))
    return [job for job in jobs if f"{job.key.split('-')[0]}@{size}" not in args.skip]  # ydf@ROWS: predict too


def wanted(jobs: list[Job], skip: list[str], size: int) -> list[Job]:
    """The jobs not skipped (``--skip c45@ROWS`` also skips predicting with that model; ``predict@ROWS`` both)."""
    skipped = {job.key for job in jobs if f"{job.key.split('-')[0]}@{size}" in skip}
    return [job for job in jobs if job.key not in skipped and job.key.replace("predict-", "") not in skipped]


def in_turn(jobs: list[Job], repeat: int) -> dict[str, Run]:
    """Run the jobs in turn, ``repeat`` rounds (a model is written before it predicts); the median runs."""
    order = sorted(jobs, key=lambda job: ORDER.index(job.key))
    for _ in range(repeat):
        for job in order:
            job.results.append(run(job.command))
            print(f"  {job.name}: {job.results[-1].wall:.2f} s, {job.results[-1].peak_mb:.0f} MB", flush=True)
    return {job.key: median_run(job.results) for job in order}


def ratio_text(key: str, results: dict[str, Run]) -> str:
    """'scikit-learn 0.21x (mem 0.80x), YDF 0.70x (mem 3.4x)' for the peers measured beside ``key``."""
    mine = results[key]
    parts = [
        f"{label} {mine.wall / results[peer].wall:.2f}x (mem {mine.peak_mb / results[peer].peak_mb:.2f}x)"
        for peer, label in RATIOS.get(key, ())
        if peer in results
    ]
    return ", ".join(parts)


def print_table(measured: dict[int, dict[str, Run]], names: dict[str, str]) -> None:
    print(f"\n{'rows':>9}  {'tool':<38} {'wall s':>8} {'cpu s':>8} {'peak MB':>8} {'leaves':>7}  dtree/peer")
    for size, results in measured.items():
        for key, result in results.items():
            tool = names[key]
            print(
                f"{size:>9}  {tool:<38} {result.wall:8.2f} {result.cpu:8.2f} {result.peak_mb:8.0f} "
                f"{leaves(result.out + result.err):>7}  {ratio_text(key, results)}"
            )


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000, 1_000_000])
    parser.add_argument("--repeat", type=int, default=1, help="Rounds of every job at each size (the median is kept)")
    parser.add_argument("--sklearn-python", help="Python with scikit-learn and pandas installed (see above)")
    parser.add_argument("--ydf-python", help="Python with ydf installed (see above)")
    parser.add_argument("--weka-jar", default="/usr/share/java/weka-3.6.14.jar")
    parser.add_argument("--weka-examples", default="/usr/share/doc/weka/examples", help="Holds weather.nominal.arff")
    parser.add_argument("--dtree", help="The dtree command to time (default: python -m dtcli), e.g. .venv/bin/dtree")
    parser.add_argument("--keep", help="Keep the tables, models and predictions in this directory")
    parser.add_argument("--make-data", default=str(MAKE_DATA), help="shared/bench/make_data.py (default: beside repo)")
    parser.add_argument(
        "--skip",
        nargs="*",
        default=[],
        metavar="JOB@ROWS",
        help="Jobs not to run, e.g. j48@1000000 (also: c45, cart, c45u, bins, predict, sklearn, ydf)",
    )
    parser.add_argument("--startup-runs", type=int, default=10, help="Runs of each start-up command (default 10)")
    parser.add_argument("--cold-rows", type=int, default=20_000, help="Rows of the cold first run (default 20000)")
    parser.add_argument("--no-cold", action="store_true", help="Leave out the cold first runs")
    return parser.parse_args()  # fmt: skip


def main() -> None:
    args = parse_args()
    args.java = bool(shutil.which("java")) and Path(args.weka_jar).exists()
    work = Path(args.keep or tempfile.mkdtemp(prefix="dtree-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    dtree = shlex.split(args.dtree) if args.dtree else [sys.executable, "-m", "dtcli"]
    if not args.dtree:  # dtree's modules compiled to bytecode, as pip does when it installs a package: with
        # PYTHONDONTWRITEBYTECODE set (as in some containers), every run would compile the ones edited since
        run([sys.executable, "-m", "compileall", "-q", str(ROOT / "dtcli")])
    sizes = sorted(set(args.sizes) | ({args.cold_rows} if not args.no_cold else set()))
    for size in sizes:
        data = work / f"bench-{size}.csv"
        if not data.exists():
            run([sys.executable, args.make_data, str(size), str(data)])
    cold = {} if args.no_cold else cold_runs(dtree, work / f"bench-{args.cold_rows}.csv", work)
    # Then a warm-up: every kernel compiled into this machine's cache (`dtree warm-up`; on a small table
    # the jobs below may grow by the reference and compile nothing), and dtree's jobs once on the
    # smallest table, so that the timed runs below neither compile nor read cold files.
    run([*dtree, "warm-up", "-q"])
    for job in dtree_jobs(dtree, work / f"bench-{min(sizes)}.csv", work, 0):
        run(job.command)
    measured: dict[int, dict[str, Run]] = {}
    names: dict[str, str] = {}
    for size in args.sizes:
        print(f"{size:,} rows:", flush=True)
        data = work / f"bench-{size}.csv"
        jobs = wanted(dtree_jobs(dtree, data, work, size), args.skip, size) + peer_jobs(args, data, work, size)
        names.update({job.key: job.name for job in jobs})
        measured[size] = in_turn(jobs, args.repeat)
    print_table(measured, names)
    startup = startup_runs(dtree, ROOT / "sample_data" / "weather.csv", args)
    print()
    for line in verdicts(measured, cold, startup):
        print(line)
    print(f"\n(tables, models and predictions in {work}; {machine()})")


if __name__ == "__main__":
    main()
