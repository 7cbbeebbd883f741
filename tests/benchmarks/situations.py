"""The benchmark's special runs: the first run on a new machine, start-up against Weka's JVM, the machine."""

from __future__ import annotations

import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from peers import Run, median_run, run

ANNOUNCEMENT = "compiling kernels"
# ID3 splits numbers only with thresholds, and refuses missing values unless told how to treat them.
COLD = {"id3": ["--thresholds", "midpoint", "--missing", "majority"], "c45": [], "cart": []}


@dataclass
class Cold:
    """A first run: the process, whether kernels were compiled (the fresh cache filled) and announced."""

    run: Run
    compiled: bool
    announced: bool


def cold_runs(dtree: list[str], data: Path, work: Path) -> dict[str, Cold]:
    """Train ``data`` with each algorithm as on a new machine: a fresh home directory and an empty
    NUMBA_CACHE_DIR (no XDG_CACHE_HOME, no DTREE_ENGINE), so that the kernels compile."""
    print(f"first run on a new machine ({data.name}):", flush=True)
    found = {}
    for algorithm, extra in COLD.items():
        fresh = Path(tempfile.mkdtemp(prefix=f"cold-{algorithm}-", dir=work))
        (fresh / "home").mkdir()
        env = {**os.environ, "HOME": str(fresh / "home"), "NUMBA_CACHE_DIR": str(fresh / "numba-cache")}
        for name in ("XDG_CACHE_HOME", "DTREE_ENGINE"):
            env.pop(name, None)
        command = [*dtree, "train", str(data), "-a", algorithm, *extra, "-o", str(fresh / "model.json")]
        result = run(command, env)
        compiled = any((fresh / "numba-cache").rglob("*.nbi"))
        found[algorithm] = Cold(result, compiled, ANNOUNCEMENT in result.err)
        print(
            f"  dtree train -a {algorithm} {' '.join(extra)}: {result.wall:.1f} s wall, {result.cpu:.1f} s cpu, "
            f"{result.peak_mb:.0f} MB; "
            f"kernels compiled: {'yes' if compiled else 'no'}; '{ANNOUNCEMENT}' on stderr: "
            f"{'yes' if found[algorithm].announced else 'no'}",
            flush=True,
        )
    return found


def startup_runs(dtree: list[str], weather: Path, args) -> dict[str, Run]:
    """`dtree gain` and `dtree train` on the sample data and Weka's Id3 on weather.nominal.arff (JVM
    start included), in turn after one warm-up each: the median of ``args.startup_runs`` each."""
    commands = {
        "gain": [*dtree, "gain", str(weather), "--ignore", "Day"],
        "train": [*dtree, "train", str(weather), "--ignore", "Day"],
    }
    arff = Path(args.weka_examples) / "weather.nominal.arff"
    if args.java and arff.exists():
        commands["weka-id3"] = ["java", "-cp", args.weka_jar, "weka.classifiers.trees.Id3", "-t", str(arff)]
    runs: dict[str, list[Run]] = {name: [] for name in commands}
    for command in commands.values():
        run(command)  # warm-up: the disk cache holds the files
    for _ in range(args.startup_runs):
        for name, command in commands.items():
            runs[name].append(run(command))
    medians = {name: median_run(found) for name, found in runs.items()}
    print(f"\nstart-up (median of {args.startup_runs}, in turn):")
    for name, result in medians.items():
        shown = " ".join(commands[name][len(dtree) :] if name != "weka-id3" else commands[name][3:])
        versus = ""
        if name != "weka-id3" and "weka-id3" in medians:
            weka = medians["weka-id3"]
            versus = f"  Weka Id3 {result.wall / weka.wall:.2f}x (cpu {result.cpu / weka.cpu:.2f}x)"
        print(f"  {shown}: {result.wall:.3f} s wall, {result.cpu:.3f} s cpu, {result.peak_mb:.0f} MB{versus}")
    return medians


def machine() -> str:
    """One line describing this machine and the software measured."""
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        memory = int(Path("/proc/meminfo").read_text().split()[1]) / 2**20
        load = Path("/proc/loadavg").read_text().split()[:3]
    except OSError:
        memory, load = 0.0, ["?"]
    import numpy

    try:
        import numba

        compiled = f"numba {numba.__version__}"
    except ImportError:
        compiled = "no numba"
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory:.0f} GiB, load average {' '.join(load)}; "
        f"Python {sys.version.split()[0]}, numpy {numpy.__version__}, {compiled}"
    )
