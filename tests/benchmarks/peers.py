"""Processes the benchmark times: a runner (wall, CPU, peak memory from wait4) and the peers' scripts.

The peers run in a scratch Python of their own (none of them is a dependency of dtree):

    python3 -m venv /tmp/ref-venv && /tmp/ref-venv/bin/pip install ydf scikit-learn pandas

and ``--sklearn-python /tmp/ref-venv/bin/python --ydf-python /tmp/ref-venv/bin/python``. Each
script reads the CSV itself, so a peer's time and memory include its own loading, as dtree's do.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# scikit-learn: nominal columns as category codes (-1 for missing), missing numbers as -1e9.
SKLEARN_FIT = r"""
import sys
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
print(model.get_n_leaves(), "leaves")
"""

# YDF's CART learner, unpruned (validation_ratio=0: no validation set to prune with), trained from the path.
YDF_FIT = r"""
import shutil, sys
import ydf
learner = ydf.CartLearner(label=sys.argv[2], validation_ratio=0.0, max_depth=-1, min_examples=2)
model = learner.train(sys.argv[1])
shutil.rmtree(sys.argv[3], ignore_errors=True)  # a model saved over another one could mix files
model.save(sys.argv[3])
print((model.num_nodes() + 1) // 2, "leaves")
"""

# YDF predicting with its own model: the class of every row of the CSV, one per line, into a file.
YDF_PREDICT = r"""
import sys
import ydf
model = ydf.load_model(sys.argv[1])
classes = model.predict_class(sys.argv[2])
with open(sys.argv[3], "w") as out:
    out.write("\n".join(str(c) for c in classes))
    out.write("\n")
print(len(classes), "rows")
"""


@dataclass
class Run:
    """One finished process: wall and CPU seconds (user + system), peak resident memory in MB
    (10**6 bytes, as the issue's targets are written), its output."""

    wall: float
    cpu: float
    peak_mb: float
    out: str
    err: str


def run(command: list[str], env: dict | None = None, check: bool = True) -> Run:
    """Run ``command`` to its end; its outputs go to temporary files (no pipe to fill), then are read."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=os.environ if env is None else env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        result = Run(
            wall,
            usage.ru_utime + usage.ru_stime,
            usage.ru_maxrss * 1024 / 1e6,  # (Linux gives KiB)
            out.read().decode(errors="replace"),
            err.read().decode(errors="replace"),
        )
    if check and process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({process.returncode}):\n{result.err[-2000:]}")
    return result


def median_run(runs: list[Run]) -> Run:
    """The run of median wall time (its CPU and memory with it); the output of the last run."""
    ordered = sorted(runs, key=lambda r: r.wall)
    middle = ordered[(len(ordered) - 1) // 2]
    return Run(middle.wall, middle.cpu, middle.peak_mb, runs[-1].out, runs[-1].err)


def to_arff(csv_path: Path, arff_path: Path) -> None:
    """The CSV table as ARFF for Weka (columns named x* are numeric, the others nominal), in two passes."""
    import csv

    with open(csv_path, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        nominal = [j for j, column in enumerate(header) if not column.startswith("x")]
        values = {j: set() for j in nominal}
        for row in reader:
            for j in nominal:
                values[j].add(row[j])
    with open(csv_path, newline="") as handle, open(arff_path, "w") as out:
        out.write("@relation bench\n")
        for j, column in enumerate(header):
            kind = "{" + ",".join(sorted(values[j] - {""})) + "}" if j in values else "numeric"
            out.write(f"@attribute {column} {kind}\n")
        out.write("@data\n")
        reader = csv.reader(handle)
        next(reader)
        for row in reader:
            out.write(",".join(cell if cell != "" else "?" for cell in row) + "\n")


def leaves(text: str) -> str:
    """The number of leaves a tool printed (dtree's 'tree: N leaves', Weka's 'Number of Leaves', 'N leaves')."""
    for line in text.splitlines():
        if " tree: " in line and "leaves" in line:
            return line.split(" tree: ")[-1].split(" leaves")[0]
        if line.strip().startswith("Number of Leaves"):
            return line.split(":")[-1].strip()
        if line.strip().endswith(" leaves"):
            return line.split()[0]
    return ""
