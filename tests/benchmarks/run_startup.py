#!/usr/bin/env python3
"""Time the start-up of every dtree command on the sample data against Weka's JVM, in one run.

    python tests/benchmarks/run_startup.py [--repeat 15] [--weka-jar PATH] [--dtree COMMAND] [--roff]

Grading scripts call dtree thousands of times on small files, so what each call costs is mostly
start-up. Each dtree command runs on the shipped sample data, the whole process timed, beside Weka's
JVM doing the least it does with the same table:

- nominal: ``sample_data/weather.csv --ignore Day`` (ID3, dtree's default) against
  ``java weka.classifiers.trees.Id3 -t weather.nominal.arff``;
- numeric: ``sample_data/iris.csv`` (``-a c45`` where a command grows a tree) against
  ``java weka.classifiers.trees.J48 -t iris.arff`` (the ARFF copies in tests/fixtures/weka/data/).

Weka's run with -t alone trains, prints the tree and evaluates it on the training set and by 10-fold
cross-validation; each dtree command does a part of that, or less. The commands: train, predict,
evaluate (a model on the data, and --cv 10 as Weka does), gain (the plain path, and DTREE_PLAIN=0 for
the full numpy path: whether the second path pays), prune (pessimistic, with --data), rules, show,
diff (the model against its pruned copy), and ``dtree --version`` beside Id3, with the floors: Python's
own start (``python -c pass``), ``python -c "import click"`` and ``"import numpy"``. The models are
trained once before the rounds, into a temporary directory; every output goes to a file, as in a
grading script's pipe.

Each round visits the commands in a shuffled order (seeded), each run right after a run of its table's
JVM command, so the JVM is sampled as often and at the same moments as dtree; ``--repeat`` rounds
(default 15) after one untimed run of each command (the disk cache holds the files, the bytecode is
written). The table gives the medians of wall time and of CPU time (user + system, from os.wait4) and
the ratios dtree / JVM of those medians. dtree runs as pip installs it: its modules' bytecode compiled
once and kept (PYTHONPYCACHEPREFIX in the temporary directory, PYTHONDONTWRITEBYTECODE unset). Without
java or the Weka jar the script says so and exits 0. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from peers import run
from run_classroom import installed

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SAMPLES = ROOT / "sample_data"
WEKA_DATA = ROOT / "tests" / "fixtures" / "weka" / "data"
PLAIN_OFF = {"DTREE_PLAIN": "0"}
# Python's own start and the two libraries most commands import (numpy with one OpenBLAS thread, as dtree sets it)
FLOORS = {"python -c pass": "pass", "import click": "import click", "import numpy": "import numpy"}


def dtree_default() -> str:
    """The ``dtree`` script pip installed beside this Python, else ``python -m dtcli``."""
    script = Path(sys.executable).parent / "dtree"
    return shlex.quote(str(script)) if script.exists() else f"{shlex.quote(sys.executable)} -m dtcli"


def tables(folder: Path) -> dict[str, dict]:
    """The two tables: the file dtree reads, its options, the JVM's command (without java -cp JAR)."""
    return {
        "nominal": {
            "title": "weather.csv --ignore Day against Weka's Id3 -t weather.nominal.arff",
            "data": SAMPLES / "weather.csv",
            "read": ["--ignore", "Day"],
            "grow": [],
            "jvm": ["weka.classifiers.trees.Id3", "-t", str(WEKA_DATA / "weather.nominal.arff")],
            "model": folder / "weather.json",
            "pruned": folder / "weather.pruned.json",
        },
        "numeric": {
            "title": "iris.csv against Weka's J48 -t iris.arff",
            "data": SAMPLES / "iris.csv",
            "read": [],
            "grow": ["-a", "c45"],
            "jvm": ["weka.classifiers.trees.J48", "-t", str(WEKA_DATA / "iris.arff")],
            "model": folder / "iris.json",
            "pruned": folder / "iris.pruned.json",
        },
    }


def commands(table: dict, first: bool) -> dict[str, tuple[list[str], dict]]:
    """label -> (dtree's arguments, environment overrides); ``first``: the table that also times
    ``dtree --version`` and Python's own start."""
    data, read, grow = str(table["data"]), table["read"], table["grow"]
    model, pruned = str(table["model"]), str(table["pruned"])
    found = {
        "train": (["train", data, *read, *grow], {}),
        "predict": (["predict", model, data], {}),
        "evaluate MODEL": (["evaluate", model, data], {}),
        "evaluate --cv 10": (["evaluate", data, *read, *grow, "--cv", "10"], {}),
        "gain (plain path)": (["gain", data, *read], {}),
        "gain, DTREE_PLAIN=0": (["gain", data, *read], PLAIN_OFF),
        "prune": (["prune", model, "--method", "pessimistic", "--data", data], {}),
        "rules": (["rules", model], {}),
        "show": (["show", model], {}),
        "diff": (["diff", model, pruned], {}),
    }
    if first:
        found["--version"] = (["--version"], {})
    return found


def prepare(dtree: list[str], table: dict, env: dict) -> None:
    """Train the table's model and its pruned copy, the files the other commands read."""
    data, model, pruned = str(table["data"]), str(table["model"]), str(table["pruned"])
    run([*dtree, "train", data, *table["read"], *table["grow"], "-q", "-o", model], env)
    run([*dtree, "prune", model, "--method", "pessimistic", "--data", data, "-o", pruned], env)


def plain_taken(dtree: list[str], table: dict, env: dict) -> bool:
    """Whether ``dtree gain`` on the table does without numpy here (the plain path is off on some CPUs)."""
    command = [*dtree, "gain", str(table["data"]), *table["read"]]
    result = run(command, {**env, "PYTHONPROFILEIMPORTTIME": "1"})
    return not any(line.rsplit("|", 1)[-1].strip() == "numpy" for line in result.err.splitlines())


def measure(dtree, java, found, repeat, env, seed) -> dict[str, dict[str, list]]:
    """Every (table, label) run ``repeat`` times, each right after its table's JVM command; the runs kept
    as table -> label -> [Run] (label "JVM": the JVM's runs)."""
    jobs = []  # (table, label, command, environment)
    for name, (_, labelled) in found.items():
        for label, (arguments, extra) in labelled.items():
            jobs.append((name, label, [*dtree, *arguments], {**env, **extra}))
        if name == "nominal":
            for label, code in FLOORS.items():
                jobs.append((name, label, [sys.executable, "-c", code], {**env, "OPENBLAS_NUM_THREADS": "1"}))
    runs: dict[str, dict[str, list]] = {name: {"JVM": []} for name in found}
    for name, label, command, environment in jobs:
        runs[name][label] = []
        run(command, environment)  # untimed: the disk cache holds the files, the bytecode is written
    for table, _ in found.values():
        run([*java, *table["jvm"]], None)
    shuffle = random.Random(seed)
    for round_ in range(repeat):
        order = jobs[:]
        shuffle.shuffle(order)
        for name, label, command, environment in order:
            runs[name]["JVM"].append(run([*java, *found[name][0]["jvm"]], None))
            runs[name][label].append(run(command, environment))
        print(f"  round {round_ + 1} of {repeat}", file=sys.stderr, flush=True)
    return runs


def medians(runs: list) -> tuple[float, float]:
    """The median wall time and the median CPU time (user + system) of ``runs``."""
    return statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs)


def rows(found, runs) -> list[tuple[str, str, float, float, float, float]]:
    """The table's rows: (table, command, wall s, CPU s, wall ratio, CPU ratio) with the JVM's own row
    first in each table (its ratios 1)."""
    made = []
    for name, (table, _) in found.items():
        jvm_wall, jvm_cpu = medians(runs[name]["JVM"])
        jvm = "Weka " + " ".join(table["jvm"][:2]).removeprefix("weka.classifiers.trees.")
        for label, found_runs in runs[name].items():
            wall, cpu = medians(found_runs)
            made.append((name, jvm if label == "JVM" else label, wall, cpu, wall / jvm_wall, cpu / jvm_cpu))
    return made


def text_table(found, made) -> str:
    """The rows as aligned text, a heading per table."""
    lines = []
    for name, (table, _) in found.items():
        heading = f"  {'command':<22} {'wall s':>7} {'CPU s':>7} {'wall x':>7} {'CPU x':>7}"
        lines += ["", f"{name}: {table['title']}", heading]
        for _, label, wall, cpu, wall_x, cpu_x in (row for row in made if row[0] == name):
            lines.append(f"  {label:<22} {wall:7.3f} {cpu:7.3f} {wall_x:6.2f}x {cpu_x:6.2f}x")
    return "\n".join(lines)


def roff_table(made) -> str:
    """The rows as a tbl(1) table for man/dtree-performance.7."""
    escape = lambda text: text.replace("\\", "\\e").replace("-", "\\-")  # noqa: E731
    lines = [".TS", "tab(@);", "l l r r r r.", "table@command@wall s@CPU s@wall x@CPU x"]
    for k, (name, label, wall, cpu, wall_x, cpu_x) in enumerate(made):
        shown = name if k == 0 or made[k - 1][0] != name else ""  # the table's name on its first row only
        lines.append(f"{shown}@{escape(label)}@{wall:.3f}@{cpu:.3f}@{wall_x:.2f}x@{cpu_x:.2f}x")
    return "\n".join([*lines, ".TE"])


def java_version(java: list[str]) -> str:
    """The JVM's version line (``java -version`` writes it on standard error)."""
    found = subprocess.run([java[0], "-version"], capture_output=True, text=True)
    return (found.stderr.splitlines() or ["java"])[0]


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (a busy machine makes every ratio noisier)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15, help="rounds (medians kept; default 15)")
    parser.add_argument("--weka-jar", default="/usr/share/java/weka-3.6.14.jar")
    parser.add_argument("--dtree", default=dtree_default(), help="how to run dtree (default: the installed script)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the rounds' order")
    parser.add_argument("--roff", action="store_true", help="also print the table as tbl for the man page")
    args = parser.parse_args()
    if not shutil.which("java") or not Path(args.weka_jar).exists():
        print(f"skipped: java and {args.weka_jar} are needed to compare with Weka's JVM (apt-get install weka)")
        return 0
    dtree, java = shlex.split(args.dtree), ["java", "-cp", args.weka_jar]
    folder = Path(tempfile.mkdtemp(prefix="dtree-startup-"))
    try:
        env = installed(folder)
        listed = tables(folder)
        found = {name: (table, commands(table, name == "nominal")) for name, table in listed.items()}
        for table in listed.values():
            prepare(dtree, table, env)
        plain = {name: plain_taken(dtree, table, env) for name, table in listed.items()}
        print(f"dtree: {args.dtree}; {java_version(java)}; {os.cpu_count()} cores, load average {load_average()}")
        for name, taken in plain.items():
            if not taken:
                print(f"note: dtree gain on the {name} table imported numpy: the plain path is off on this machine")
        runs = measure(dtree, java, found, args.repeat, env, args.seed)
        made = rows(found, runs)
        print(f"median of {args.repeat} rounds, each command right after its table's JVM run; x: dtree / JVM")
        print(text_table(found, made))
        print(f"\nload average at the end {load_average()}")
        if args.roff:
            print()
            print(roff_table(made))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
