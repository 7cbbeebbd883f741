#!/usr/bin/env python3
"""Benchmark dtree against scikit-learn and Weka J48 on the same tables, in one run.

    python tests/benchmarks/run_benchmarks.py [--sizes 10000 100000 1000000]
        [--sklearn-python PATH] [--weka-jar PATH] [--keep DIR] [--make-data PATH]

Tables come from ../shared/bench/make_data.py (mixed nominal/numeric, 3
classes, 1% missing) and are written to a temporary directory (never to the
repository). Every tool runs as its own process, end to end from the file;
wall time and peak memory (max RSS, from wait4) are measured per process.
scikit-learn runs in the Python given by --sklearn-python (a scratch venv
with scikit-learn and pandas; it is not a dependency of dtree) and is
skipped when none is given; Weka J48 runs when java and the jar are present.
The table printed at the end gives each measurement and the ratio
dtree / competitor; then the start-up time of `dtree gain` and `dtree train`
on the sample data (median of 7 runs), and issue 5's targets, each marked
met or MISSED, on the largest table. Not part of the default test run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"

SKLEARN_FIT = r"""
import sys, time
import pandas as pd
from sklearn.tree import DecisionTreeClassifier
frame = pd.read_csv(sys.argv[1])
y = frame.pop("label")
nominal = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
for c in nominal:
    frame[c] = frame[c].astype("category").cat.codes  # -1 for missing
frame = frame.fillna(-1e9)
model = DecisionTreeClassifier(criterion=sys.argv[2], min_samples_leaf=int(sys.argv[3]), random_state=0)
model.fit(frame.to_numpy(dtype="float32"), y)
print(model.get_n_leaves())
"""


def run(command: list[str], env: dict | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak MB, stdout+stderr) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **(env or {})}
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    output = process.stdout.read()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed:\n{output[-2000:]}")
    return wall, usage.ru_maxrss / 1024, output


def to_arff(csv_path: Path, arff_path: Path) -> None:
    import pandas as pd

    frame = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    with open(arff_path, "w") as out:
        out.write("@relation bench\n")
        for column in frame.columns:
            values = sorted(v for v in frame[column].unique() if v != "")
            numeric = column.startswith("x")
            out.write(f"@attribute {column} {'numeric' if numeric else '{' + ','.join(values) + '}'}\n")
        out.write("@data\n")
        frame.replace("", "?").to_csv(out, header=False, index=False)


def leaves(text: str) -> str:
    for line in text.splitlines():
        if "leaves" in line:
            return line.split(" tree: ")[-1].split(" leaves")[0]
        if line.strip().startswith("Number of Leaves"):
            return line.split(":")[-1].strip()
    return text.strip().splitlines()[-1] if text.strip() else "?"


STARTUP = {
    "gain": ["gain", str(ROOT / "sample_data" / "weather.csv"), "--target", "PlayTennis", "--ignore", "Day"],
    "train": ["train", str(ROOT / "sample_data" / "weather.csv"), "--target", "PlayTennis", "--ignore", "Day"],
}
STARTUP_RUNS = 7


def startup_time(command: list[str]) -> float:
    """Median wall time of a command on the sample data (what a grading script pays per call)."""
    times = sorted(run(command)[0] for _ in range(STARTUP_RUNS))
    return times[len(times) // 2]


def verdicts(measured: dict[int, dict], startup: dict[str, float]) -> list[str]:
    """Issue 5's targets, each with the measured value and whether it is met (largest table)."""
    lines = []

    def check(what: str, value: float, limit: float, unit: str = "") -> None:
        verdict = "met" if value <= limit else "MISSED"
        lines.append(f"{verdict:>6}  {what}: {value:.3f}{unit} (target <= {limit:g}{unit})")

    if not measured:
        return lines
    big = max(measured)
    at = measured[big]
    if "c45" in at and "sklearn" in at:
        check(f"c45 / scikit-learn at {big:,} rows", at["c45"][0] / at["sklearn"][0], 0.25, "x")
    if "c45" in at and "j48" in at:
        check(f"c45 / J48 at {big:,} rows", at["c45"][0] / at["j48"][0], 0.05, "x")
    if "c45" in at:
        check(f"c45 peak memory at {big:,} rows", at["c45"][1] / 1000, 1.0, " GB")
    if "cart" in at and "sklearn" in at:
        check(f"cart --no-prune / scikit-learn at {big:,} rows", at["cart"][0] / at["sklearn"][0], 1 / 3, "x")
    if "predict" in at:
        check(f"predict {big:,} rows", at["predict"][0], 5.0, " s")
    smaller = [size for size in measured if size < big and "c45" in measured[size]]
    if smaller and "c45" in at:
        size = max(smaller)
        check(
            f"c45 time growth {size:,} -> {big:,} rows ({big / size:g}x the rows)",
            at["c45"][0] / measured[size]["c45"][0],
            12 * big / size / 10,
            "x",
        )
    for name, wall in startup.items():
        check(f"start-up, dtree {name} on the sample data", wall, 0.5, " s")
    return lines


def machine() -> str:
    """One line describing this machine and the software measured."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
    except OSError:
        memory = 0.0
    import numpy

    try:
        import numba

        compiled = f"numba {numba.__version__}"
    except ImportError:
        compiled = "no numba"
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB; Python {sys.version.split()[0]}, "
        f"numpy {numpy.__version__}, {compiled}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--sklearn-python", help="Python with scikit-learn and pandas installed")
    parser.add_argument("--weka-jar", default="/usr/share/java/weka-3.6.14.jar")
    parser.add_argument("--keep", help="Keep the generated tables in this directory")
    parser.add_argument(
        "--make-data",
        default=str(MAKE_DATA),
        help="shared/bench/make_data.py (default: beside the repository; give it when running from a clone elsewhere)",
    )
    parser.add_argument(
        "--skip", nargs="*", default=[], metavar="JOB@ROWS", help="Jobs not to run, e.g. cart@1000000 or j48@1000000"
    )
    args = parser.parse_args()
    work = Path(args.keep or tempfile.mkdtemp(prefix="dtree-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    dtree = [sys.executable, "-m", "dtcli"]
    java = shutil.which("java") and Path(args.weka_jar).exists()
    rows = []
    measured: dict[int, dict] = {}
    for size in args.sizes:
        data = work / f"bench-{size}.csv"
        if not data.exists():
            subprocess.run([sys.executable, args.make_data, str(size), str(data)], check=True)
    # The first run on a machine compiles the engine's kernels (cached for every later run): time it apart.
    first = work / f"bench-{min(args.sizes)}.csv"
    wall, _, _ = run(dtree + ["train", str(first), "-a", "c45", "-q"], {"DTREE_ENGINE": "numba"})
    wall += run(dtree + ["train", str(first), "-a", "c45", "-q", "--max-bins", "8"], {"DTREE_ENGINE": "numba"})[0]
    wall += run(dtree + ["train", str(first), "-a", "cart", "-q", "--criterion", "entropy"], {"DTREE_ENGINE": "numba"})[
        0
    ]
    print(
        f"first run on this machine (compiling the engine's kernels, {min(args.sizes)} rows): {wall:.1f} s", flush=True
    )
    for size in args.sizes:
        data = work / f"bench-{size}.csv"
        model = work / f"model-{size}.json"
        jobs = [
            ("c45", "c45 (pruned, as J48)", dtree + ["train", str(data), "-a", "c45", "-q", "-o", str(model)]),
            ("c45u", "c45 --no-prune", dtree + ["train", str(data), "-a", "c45", "--no-prune", "-q"]),
            ("bins", "c45 --max-bins 256", dtree + ["train", str(data), "-a", "c45", "--max-bins", "256", "-q"]),
            (
                "cart",
                "cart --no-prune -m 2 --criterion entropy",
                dtree + ["train", str(data), "-a", "cart", "--no-prune", "-m", "2", "--criterion", "entropy", "-q"],
            ),
        ]
        results = measured.setdefault(size, {})
        for key, name, command in jobs:
            if f"{key}@{size}" in args.skip:
                continue
            results[key] = run(command)
            rows.append((size, f"dtree {name}", *results[key][:2], leaves(results[key][2]), ""))
            print(rows[-1], flush=True)
        if "c45" in results:
            wall, peak, _ = run(dtree + ["predict", str(model), str(data), "-o", os.devnull, "-q"])
            results["predict"] = (wall, peak, "")
            rows.append((size, "dtree predict (c45 model)", wall, peak, "", ""))
        if args.sklearn_python and f"sklearn@{size}" not in args.skip:
            wall, peak, out = run([args.sklearn_python, "-c", SKLEARN_FIT, str(data), "entropy", "2"])
            ratios = ", ".join(f"{key} {results[key][0] / wall:.2f}x" for key in ("c45", "cart") if key in results)
            results["sklearn"] = (wall, peak, out)
            rows.append((size, "sklearn DecisionTree (entropy, leaf 2)", wall, peak, out.strip(), ratios))
            print(rows[-1], flush=True)
        if java and f"j48@{size}" not in args.skip:
            arff = work / f"bench-{size}.arff"
            if not arff.exists():
                to_arff(data, arff)
            wall, peak, out = run(
                ["java", "-Xmx8g", "-cp", args.weka_jar, "weka.classifiers.trees.J48", "-no-cv", "-t", str(arff)]
            )
            results["j48"] = (wall, peak, out)
            ratio = f"c45 {results['c45'][0] / wall:.3f}x" if "c45" in results else ""
            rows.append((size, "Weka J48 (pruned)", wall, peak, leaves(out), ratio))
            print(rows[-1], flush=True)
    print(f"\n{'rows':>9}  {'tool':<40} {'wall s':>8} {'peak MB':>8} {'leaves':>8}  dtree/competitor")
    for size, tool, wall, peak, leaf, ratio in rows:
        print(f"{size:>9}  {tool:<40} {wall:8.2f} {peak:8.0f} {leaf:>8}  {ratio}")
    startup = {name: startup_time(dtree + command) for name, command in STARTUP.items()}
    print()
    for name, wall in startup.items():
        print(f"start-up: dtree {' '.join(STARTUP[name])}: {wall:.2f} s (median of {STARTUP_RUNS})")
    print()
    for line in verdicts(measured, startup):
        print(line)
    print(f"\n(tables in {work}; {machine()})")


if __name__ == "__main__":
    main()
