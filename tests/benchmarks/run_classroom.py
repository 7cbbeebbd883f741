#!/usr/bin/env python3
"""Benchmark dtree against Weka's J48 on classroom-sized tables, warm and cold, in one run.

    python tests/benchmarks/run_classroom.py [--repeat N] [--rows 42000] [--weka-jar PATH]
        [--dtree COMMAND] [--only NAME ...] [--no-cold] [--cold-tables NAME ...] [--no-prebuilt] [--keep DIR]

The tables, written to a temporary directory at run time (never to the repository):

- Weka's example files (``tests/fixtures/weka/data/*.arff``), read by both tools as they are;
- scikit-learn's bundled data sets iris, wine, breast_cancer and digits (numeric attributes, 3 to
  10 classes), written as CSV for dtree and ARFF for J48 (scikit-learn must be importable);
- a table of ``--rows`` rows from ``../shared/bench/make_data.py`` (10 nominal and 10 numeric
  attributes, 3 classes, 1% missing), as CSV and ARFF.

For each table, in turn (J48, dtree, J48, dtree ...; ``--repeat`` rounds, medians kept):

- training: ``java weka.classifiers.trees.J48 -t F.arff -no-cv`` against ``dtree train F -a c45 -q``
  (J48 prints its tree and the training set's evaluation; dtree prints nothing with -q);
- cross-validation: ``java ... J48 -t F.arff`` (stratified 10-fold cross-validation, J48's default)
  against ``dtree evaluate F -a c45 --cv 10`` (which prints its report);
- CART (``dtree train -a cart -q``) beside J48's training, as a yardstick (Weka 3.6 has no CART);
- the other commands on the C4.5 model (``prune --method pessimistic --data F``, ``rules``, ``gain F``,
  ``predict``, ``show``), each against J48's training, the least J48 does with the file.

dtree runs as pip installs it: its modules' bytecode compiled once and kept (``PYTHONPYCACHEPREFIX``
in the temporary directory), even where PYTHONDONTWRITEBYTECODE is set, which would have every start
compile its modules anew (0.3 s or more of each run).

These are the warm runs: the kernel cache as it is (run ``dtree warm-up`` first). Then the cold
runs: the first ``dtree train -a c45`` and ``-a cart`` on a new machine (an empty NUMBA_CACHE_DIR and
a fresh home directory each), on the tables ``--cold-tables`` names, with the time over the warm
run's and whether "compiling kernels" was announced on standard error. A first run copies the kernels
compiled at install into its cache, as a user's does; ``--no-prebuilt`` (DTREE_PREBUILT_KERNELS=0)
times a machine whose install did not compile them. Every figure is the whole
process's (start-up included), wall time with the ratio dtree / J48 and, with ``--no-resident``,
the ratio of CPU time (user + system): on a busy machine a JVM's many threads get more of it than
one Python process, and the CPU ratio says more. By default dtree runs as it does for a user: the
first command starts the resident process (``man dtree``, DTREE_RESIDENT; its socket folder in the
temporary directory, and stopped at the end), which is waited for before the warm runs, and each
command runs in a copy of it, whose CPU time is the resident process's, not the command's: only
wall time is compared then. The cold runs start resident processes of their own, as first runs do.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from peers import Run, median_run, run, to_arff

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
WEKA_DATA = ROOT / "tests" / "fixtures" / "weka" / "data"
MAKE_DATA = ROOT.parent / "shared" / "bench" / "make_data.py"
SKLEARN_SETS = ("iris", "wine", "breast_cancer", "digits")
ANNOUNCEMENT = "compiling kernels"


def sklearn_tables(folder: Path) -> dict[str, tuple[Path, Path]]:
    """scikit-learn's bundled data sets as (CSV for dtree, ARFF for J48), the class last."""
    from sklearn import datasets

    made = {}
    for name in SKLEARN_SETS:
        bunch = getattr(datasets, f"load_{name}")()
        columns = [f"x{j}" for j in range(bunch.data.shape[1])]
        classes = sorted({int(t) for t in bunch.target})
        rows = [[_number(v) for v in row] + [f"c{int(t)}"] for row, t in zip(bunch.data, bunch.target)]
        csv_path, arff_path = folder / f"{name}.csv", folder / f"{name}.arff"
        csv_path.write_text("\n".join([",".join(columns + ["class"])] + [",".join(r) for r in rows]) + "\n")
        head = [f"@relation {name}"] + [f"@attribute {c} numeric" for c in columns]
        head += ["@attribute class {" + ",".join(f"c{k}" for k in classes) + "}", "@data"]
        arff_path.write_text("\n".join(head + [",".join(r) for r in rows]) + "\n")
        made[name] = (csv_path, arff_path)
    return made


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def synthetic_table(folder: Path, rows: int, make_data: Path) -> dict[str, tuple[Path, Path]]:
    """``make_data.py``'s table of ``rows`` rows as CSV and ARFF."""
    csv_path, arff_path = folder / f"synthetic-{rows}.csv", folder / f"synthetic-{rows}.arff"
    subprocess.run([sys.executable, str(make_data), str(rows), str(csv_path)], check=True)
    to_arff(csv_path, arff_path)
    return {f"synthetic-{rows}": (csv_path, arff_path)}


def tables(folder: Path, args) -> dict[str, tuple[Path, Path]]:
    """Every table of the run: name -> (the file dtree reads, the ARFF J48 reads)."""
    found = {path.stem: (path, path) for path in sorted(WEKA_DATA.glob("*.arff"))}
    found.update(sklearn_tables(folder))
    if args.rows:
        found.update(synthetic_table(folder, args.rows, Path(args.make_data)))
    if args.only:
        found = {name: paths for name, paths in found.items() if name in args.only}
    return found


def jobs(dtree: list[str], java: list[str], data: Path, arff: Path, model: Path) -> dict[str, list[str]]:
    """The commands timed on one table, in the order they alternate (``model``: the C4.5 model of ``data``)."""
    j48 = [*java, "weka.classifiers.trees.J48", "-t", str(arff)]
    return {
        "j48-train": [*j48, "-no-cv"],
        "c45-train": [*dtree, "train", str(data), "-a", "c45", "-q"],
        "cart-train": [*dtree, "train", str(data), "-a", "cart", "-q"],
        "j48-cv": j48,
        "c45-cv": [*dtree, "evaluate", str(data), "-a", "c45", "--cv", "10"],
        "prune": [*dtree, "prune", str(model), "--method", "pessimistic", "--data", str(data)],
        "rules": [*dtree, "rules", str(model)],
        "gain": [*dtree, "gain", str(data)],
        "predict": [*dtree, "predict", str(model), str(data)],
        "show": [*dtree, "show", str(model)],
    }


# (dtree's command, J48's): the other commands against J48's training, the least J48 does on the file
PAIRS = (("c45-train", "j48-train"), ("cart-train", "j48-train"), ("c45-cv", "j48-cv"))
PAIRS += tuple((name, "j48-train") for name in ("prune", "rules", "gain", "predict", "show"))


def installed(folder: Path, resident: bool = True) -> dict:
    """dtree's environment as installed by pip: its modules' bytecode compiled once and kept (here, in
    ``folder``), whatever PYTHONDONTWRITEBYTECODE says (set, every start would compile 90 modules anew);
    the resident process's socket folder in ``folder`` (``resident``), or the resident process off."""
    env = {**os.environ, "PYTHONPYCACHEPREFIX": str(folder / "pycache"), "XDG_RUNTIME_DIR": str(folder / "run")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["DTREE_RESIDENT"] = "1" if resident else "0"
    return env


def resident_locks(folder: Path) -> list[tuple[int, int]]:
    """(process id, commands served) of each resident process started in the run (their lock files)."""
    found = []
    for lock in (folder / "run").glob("dtree-*/*.lock"):
        words = lock.read_text().split()
        if len(words) == 2:
            found.append((int(words[0]), int(words[1])))
    return found


def resident_ready(dtree: list[str], env: dict, folder: Path) -> float:
    """Start the resident process and wait until it serves a command: the seconds that took."""
    started = time.perf_counter()
    run([*dtree, "--version"], env)
    while time.perf_counter() - started < 120:
        before = sum(count for _, count in resident_locks(folder))
        run([*dtree, "--version"], env)
        if sum(count for _, count in resident_locks(folder)) > before:
            return time.perf_counter() - started
        time.sleep(0.2)
    raise RuntimeError("the resident process never served a command")


def warm_rounds(name: str, commands: dict[str, list[str]], repeat: int, env: dict, cpu: bool) -> dict[str, Run]:
    """Each command ``repeat`` times, in turn; the median run (by wall time) of each (dtree's in ``env``);
    the ratios of CPU time too with ``cpu`` (not with the resident process: a command's copy runs there)."""
    runs: dict[str, list[Run]] = {key: [] for key in commands}
    envs = {key: None if key.startswith("j48") else env for key in commands}
    for key, command in commands.items():
        run(command, envs[key])  # once untimed: the disk cache holds the files, the JVM's classes are read
    for _ in range(repeat):
        for key, command in commands.items():
            runs[key].append(run(command, envs[key]))
    medians = {key: median_run(found) for key, found in runs.items()}
    shown = "; ".join(
        f"{a} {medians[a].wall:.2f} s / {b} {medians[b].wall:.2f} s = {medians[a].wall / medians[b].wall:.2f}x"
        + (f" (cpu {medians[a].cpu / medians[b].cpu:.2f}x)" if cpu else "")
        for a, b in PAIRS
    )
    print(f"  {name}: {shown}", flush=True)
    return medians


def cold_run(
    dtree: list[str], data: Path, algorithm: str, work: Path, resident: bool, prebuilt: bool = True
) -> tuple[Run, bool]:
    """The first ``dtree train -a algorithm`` on a new machine: (the run, whether it announced compiling).
    With ``resident``, it starts a resident process too, as a first run does; without ``prebuilt``, the
    kernels compiled at install are not copied in."""
    fresh = Path(tempfile.mkdtemp(prefix=f"cold-{algorithm}-", dir=work))
    (fresh / "home").mkdir()
    env = {**installed(work, resident), "HOME": str(fresh / "home"), "NUMBA_CACHE_DIR": str(fresh / "numba-cache")}
    for variable in ("XDG_CACHE_HOME", "DTREE_ENGINE", "DTREE_PREBUILT_KERNELS"):
        env.pop(variable, None)
    if not prebuilt:
        env["DTREE_PREBUILT_KERNELS"] = "0"
    result = run([*dtree, "train", str(data), "-a", algorithm, "-q", "-o", str(fresh / "model.json")], env)
    shutil.rmtree(fresh, ignore_errors=True)
    return result, ANNOUNCEMENT in result.err


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3, help="rounds of the warm runs (medians kept)")
    parser.add_argument("--rows", type=int, default=42_000, help="rows of the synthetic table (0: none)")
    parser.add_argument("--make-data", default=str(MAKE_DATA), help="the synthetic tables' generator")
    parser.add_argument("--weka-jar", default="/usr/share/java/weka-3.6.14.jar")
    parser.add_argument("--dtree", default=f"{shlex.quote(sys.executable)} -m dtcli", help="how to run dtree")
    parser.add_argument("--only", nargs="*", help="only these tables (by name: iris, digits, synthetic-42000 ...)")
    parser.add_argument("--no-cold", action="store_true", help="leave out the first runs on a new machine")
    parser.add_argument("--cold-tables", nargs="*", default=["iris", "digits", "synthetic-42000"])
    parser.add_argument("--keep", help="write the tables here and keep them")
    parser.add_argument("--no-resident", action="store_true", help="run each dtree command on its own")
    parser.add_argument("--no-prebuilt", action="store_true", help="cold runs without the kernels built at install")
    args = parser.parse_args()
    if not shutil.which("java") or not Path(args.weka_jar).exists():
        sys.exit(f"java and {args.weka_jar} are needed (apt-get install weka)")
    dtree, java = shlex.split(args.dtree), ["java", "-cp", args.weka_jar]
    folder = Path(args.keep or tempfile.mkdtemp(prefix="dtree-classroom-"))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "run").mkdir(mode=0o700, exist_ok=True)
    try:
        found = tables(folder, args)
        env = installed(folder, not args.no_resident)
        if args.no_resident:
            print("each dtree command on its own (DTREE_RESIDENT=0)")
        else:
            ready = resident_ready(dtree, env, folder)
            print(f"the resident process served its first command {ready:.1f} s after it started (CPU: not counted)")
        print(f"warm runs (the kernel cache as it is), median of {args.repeat}, wall seconds, dtree / J48:")
        warm = {}
        for name, (data, arff) in found.items():
            model = folder / f"{name}.c45.json"
            try:
                run([*dtree, "train", str(data), "-a", "c45", "-q", "-o", str(model)], env)
            except RuntimeError as error:
                if "is numeric" not in str(error):
                    raise
                print(f"  {name}: left out (its class is numeric: J48 and C4.5 learn classes only)", flush=True)
                continue
            warm[name] = warm_rounds(name, jobs(dtree, java, data, arff, model), args.repeat, env, args.no_resident)
        for a, b in PAIRS:
            for measure in ("wall", "cpu") if args.no_resident else ("wall",):
                ratio = {n: getattr(warm[n][a], measure) / getattr(warm[n][b], measure) for n in warm}
                n = max(ratio, key=ratio.get)
                print(f"largest {a} / {b} ({measure}): {ratio[n]:.2f}x on {n}")
        if not args.no_cold:
            print("first runs on a new machine (empty kernel cache), wall seconds:")
            for name in (n for n in args.cold_tables if n in found):
                for algorithm in ("c45", "cart"):
                    result, announced = cold_run(
                        dtree, found[name][0], algorithm, folder, not args.no_resident, not args.no_prebuilt
                    )
                    over = result.wall - warm[name][f"{algorithm}-train"].wall
                    print(
                        f"  {name} -a {algorithm}: {result.wall:.1f} s ({over:+.1f} s over warm), "
                        f"'{ANNOUNCEMENT}' on stderr: {'yes' if announced else 'no'}",
                        flush=True,
                    )
    finally:
        for pid, _ in resident_locks(folder):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
