"""A 10,000-level tree through every command, as real processes.

Valid data grows it: ``x`` = 0, 1, ..., 10001 with the class alternating
(a, b, a, ...), and CART with ``-m 1`` cuts one row off at each level
(``x <= 0.5``, then ``x <= 1.5`` below ``x > 0.5``, ...): depth 10,001,
10,002 leaves of one row each. Every number checked below follows from that
shape: predictions on the training rows are their classes, a leaf per rule,
the first weakest link is the root at alpha 0.5 / 10001, and so on.
ID3 with ``--thresholds midpoint`` grows the same chain (1,000 levels on
1,001 rows: deep enough that ``json.loads`` cannot read the model).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.compiled  # the CART builder and pessimistic pruning run compiled at this size

N = 10_002  # rows: x = 0 .. 10001
DEPTH = N - 1
TIMEOUT = 300


def dtree(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="120", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    return subprocess.run(
        [sys.executable, "-m", "dtcli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=TIMEOUT,
    )


def ok(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    done = dtree(cwd, *args)
    assert done.returncode == 0, f"dtree {' '.join(args)}: exit {done.returncode}\n{done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr
    return done


def report(done: subprocess.CompletedProcess) -> str:
    """What a run wrote on stderr, less the line announcing a compile (a machine whose kernel cache
    lacks the prediction kernel for this tree compiles it first, and says so)."""
    return "".join(line for line in done.stderr.splitlines(keepends=True) if not line.startswith("compiling kernels"))


def label(i: int) -> str:
    return "ab"[i % 2]


def chain_csv(n: int) -> str:
    return "x,y\n" + "".join(f"{i},{label(i)}\n" for i in range(n))


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """A directory with deep.csv and deep.json (trained once, by a real process)."""
    work = tmp_path_factory.mktemp("deep")
    (work / "deep.csv").write_text(chain_csv(N))
    done = ok(work, "train", "deep.csv", "-a", "cart", "-m", "1", "-o", "deep.json", "-q")
    assert done.stderr == (
        f"Training set: {N:,} of {N:,} correct (100.0%)\n"
        f"CART tree: {N} leaves, {2 * N - 1} nodes, depth {DEPTH}; model written to deep.json\n"
    )
    return work


def load(path: Path):
    from dtcli.model.format.model import loads_model

    return loads_model(path.read_text(encoding="utf-8"), str(path))


def chain(tree, rows: int = N):
    """Check ``tree`` is the chain the docstring describes (by walking it, no recursion)."""
    node = tree.root
    for d in range(rows - 1):
        assert node.test.attribute.name == "x" and node.test.threshold == d + 0.5, d
        first, node = node.children
        assert first.is_leaf and tree.classes[first.label] == label(d) and first.counts.sum() == 1, d
        assert node.counts.sum() == rows - d - 1
    assert node.is_leaf and tree.classes[node.label] == label(rows - 1)


def test_the_model_is_the_chain_and_reads_back_to_the_same_bytes(work):
    from dtcli.model.format.model import dumps_model

    text = (work / "deep.json").read_text()
    assert len(text) < 3_000_000  # compact from 10 levels down (2.1 MB); indented, it would take gigabytes
    tree = load(work / "deep.json")
    chain(tree)
    assert tree.root.depth() == DEPTH
    assert dumps_model(tree) == text


def test_train_prints_every_format(work):
    as_json = ok(work, "train", "deep.csv", "-a", "cart", "-m", "1", "-f", "json")
    assert as_json.stdout == (work / "deep.json").read_text()
    text = ok(work, "train", "deep.csv", "-a", "cart", "-m", "1", "-f", "text").stdout.splitlines()
    # 1,000 levels printed whole (a leaf line and a split line each), then what is below
    assert len(text) == 2 * 1000 + 1
    assert text[:3] == ["x <= 0.5: a (1.0)", "x > 0.5", "|   x <= 1.5: b (1.0)"]
    assert text[-2] == "|   " * 999 + "x > 999.5"
    below = 2 * N - 1 - (2 * 1000 + 1)
    assert (
        text[-1]
        == "|   " * 1000 + f"... {DEPTH - 1000} more levels, {below} nodes, not shown (the model file has them)"
    )
    # grown on a stratified two thirds, pruned on the held-out third: a held-out row mostly falls in
    # the leaf of a neighbour of the other class, so the full tree gets most wrong, a single leaf half
    held = ok(work, "train", "deep.csv", "-a", "cart", "-m", "1", "--prune", "reduced-error", "-q")
    assert held.stderr.splitlines()[-1].startswith("CART tree: 1 leaf, 1 node, depth 0")
    rich = ok(work, "train", "deep.csv", "-a", "cart", "-m", "1").stdout.splitlines()
    assert rich[0].startswith("y [a 5001, b 5001] · split on x (Gini gain")
    tail = " ".join(line.strip() for line in rich[-4:])  # the summary, wrapped in the room left
    assert len(rich) < 200 and "more levels," in tail and tail.endswith("nodes")


def test_predict(work):
    done = ok(work, "predict", "deep.json", "deep.csv", "--proba", "-o", "out.csv")
    assert report(done).startswith(f"Accuracy: {N}/{N} = 1.000 (0 errors)")
    rows = list(csv.DictReader(io.StringIO((work / "out.csv").read_text())))
    assert [r["prediction"] for r in rows] == [label(i) for i in range(N)]
    assert all(r[f"proba_{r['y']}"] == "1" for r in rows)
    # between and beyond the training values, and a missing one: CART sends it down the
    # heavier branch each time, to the last split, where the two one-row branches tie (the first)
    (work / "new.csv").write_text("x\n0.3\n5000.7\n-5\n20000\n?\n")
    plain = ok(work, "predict", "deep.json", "new.csv").stdout
    assert plain == "x,prediction\n0.3,a\n5000.7,b\n-5,a\n20000,b\n?,a\n"


def test_prune_cost_complexity(work):
    path = ok(work, "prune", "deep.json", "--path").stdout.splitlines()
    assert [line.split() for line in path] == [
        ["alpha", "leaves", "train", "error"],
        ["0", str(N), "0"],
        [f"{0.5 / DEPTH:.6g}", "1", "0.5"],  # the root is the weakest link: Gini 0.5 over 10,001 extra leaves
    ]
    doc = json.loads(ok(work, "prune", "deep.json", "--path", "-f", "json").stdout)
    assert [(r["alpha"], r["leaves"]) for r in doc["rows"]] == [(0.0, N), (pytest.approx(0.5 / DEPTH), 1)]
    kept = ok(work, "prune", "deep.json", "--ccp-alpha", "0", "-o", "same.json", "-q")
    assert kept.stderr == f"pruned from {N} to {N} leaves; model written to same.json\n"
    chain(load(work / "same.json"))
    # cross-validation: a held-out row falls in a neighbour's leaf, of the other class, so the
    # full tree is wrong nearly always and the one-leaf tree is chosen (by the lowest error; the
    # one-standard-error rule's choice, the same here, is the shallow tests' (test_ccp.py))
    done = ok(work, "prune", "deep.json", "--cv-folds", "5", "--data", "deep.csv", "-f", "text")
    assert done.stdout == f": a ({N}.0/{N // 2}.0)\n"
    assert done.stderr.splitlines()[-1] == f"pruned from {N} to 1 leaf"


def test_prune_pessimistic_both_engines_agree(work):
    done = ok(work, "prune", "deep.json", "--method", "pessimistic", "--data", "deep.csv", "-o", "p.json", "--trace")
    steps = [line for line in done.stderr.splitlines() if line.endswith("cases)")]
    assert len(steps) >= DEPTH and f"/... {DEPTH - 41} levels .../" in steps[0]  # the deepest first, summarised
    assert done.stderr.endswith("leaves; model written to p.json\n")
    # the reference keeps each node's cases (memory grows with rows x depth): the first 3,000 rows
    (work / "d3.csv").write_text(chain_csv(3000))
    ok(work, "train", "d3.csv", "-a", "cart", "-m", "1", "-o", "d3.json", "-q", "--engine", "reference")
    for engine in ("compiled", "reference"):
        args = ("--method", "pessimistic", "--data", "d3.csv", "--engine", engine, "-o", f"{engine}.json", "-q")
        ok(work, "prune", "d3.json", *args)
    assert (work / "compiled.json").read_bytes() == (work / "reference.json").read_bytes()


def test_prune_reduced_error(work):
    kept = ok(work, "prune", "deep.json", "--method", "reduced-error", "--validation", "deep.csv", "-q")
    assert kept.stderr == f"pruned from {N} to {N} leaves\n"  # every pruning lowers accuracy on the training rows
    # the classes flipped: the tree gets none right; a leaf at the root (class a) gets the 5,001
    # rows whose flipped class is a, more than any deeper leaf: one step, then nothing to prune
    (work / "flipped.csv").write_text("x,y\n" + "".join(f"{i},{label(i + 1)}\n" for i in range(N)))
    done = ok(
        work, "prune", "deep.json", "--method", "reduced-error", "--validation", "flipped.csv", "--trace", "-f", "text"
    )
    assert done.stdout == f": a ({N}.0/{N // 2}.0)\n"
    assert [line.split() for line in done.stderr.splitlines()] == [
        ["Reduced-error", "pruning", "(validation", "accuracy;", "no", "worse", "is", "enough):"],
        ["before", "after", "nodes", "node"],
        ["0.0000", "0.5000", "1", "/", f"({N}", "cases)"],
        f"pruned from {N} to 1 leaf".split(),
    ]
    curve = ok(
        work,
        "prune",
        "deep.json",
        "--method",
        "reduced-error",
        "--validation",
        "flipped.csv",
        "--curve",
        "--test",
        "deep.csv",
    )
    assert [line.split() for line in curve.stdout.splitlines()] == [
        ["nodes", "leaves", "training", "validation", "test"],
        [str(2 * N - 1), str(N), "1.0000", "0.0000", "1.0000"],
        ["1", "1", "0.5000", "0.5000", "0.5000"],
    ]


def test_rules_in_every_format(work):
    text = ok(work, "rules", "deep.json").stdout.splitlines()
    assert len(text) == 2 * N + 1  # two lines a rule, a rule a leaf, and the default
    assert text[0] == "R1: IF x <= 0.5 THEN y = a"
    assert text[2] == "R2: IF 0.5 < x <= 1.5 THEN y = b"
    assert text[-3] == f"R{N}: IF x > {N - 2}.5 THEN y = b"
    assert text[-1] == f"R{N + 1}: ELSE y = a  (default)"
    ok(work, "rules", "deep.json", "-f", "json", "-o", "rules.json")
    done = ok(work, "predict", "rules.json", "deep.csv")
    assert report(done).startswith(f"Accuracy: {N}/{N} = 1.000")
    assert len(ok(work, "rules", "deep.json", "-f", "csv").stdout.splitlines()) == N + 2
    assert len(ok(work, "rules", "deep.json", "-f", "markdown").stdout.splitlines()) == N + 3
    sample = [0, 1, 2, 4999, 5000, N - 2, N - 1]
    namespace: dict = {}
    exec(ok(work, "rules", "deep.json", "-f", "python").stdout, namespace)
    assert [namespace["predict"]({"x": str(i)}) for i in sample] == [label(i) for i in sample]
    sql = ok(work, "rules", "deep.json", "-f", "sql").stdout
    with sqlite3.connect(":memory:") as db:
        db.execute('CREATE TABLE t ("x" REAL)')
        db.executemany("INSERT INTO t VALUES (?)", [(i,) for i in sample])
        assert [row[0] for row in db.execute(f"SELECT {sql} FROM t ORDER BY x")] == [label(i) for i in sample]
    # post-pruning: a one-case rule's estimate (0.25) is beaten by dropping its only condition
    # (all rows, half right: 0.497), so every rule becomes a bare class; duplicates go
    pruned = ok(work, "rules", "deep.json", "--prune", "--data", "deep.csv").stdout.splitlines()
    assert [line for line in pruned if line.startswith("R")] == [
        "R1: IF TRUE THEN y = a",
        "R2: IF TRUE THEN y = b",
        "R3: ELSE y = a  (default)",
    ]


def test_gain_on_the_data(work):
    done = ok(work, "gain", "deep.csv", "--format", "json")
    doc = json.loads(done.stdout)
    assert doc["rows"] == N and doc["class_counts"] == [N / 2, N / 2]
    cuts = ok(work, "gain", "deep.csv", "--thresholds-all").stdout
    assert cuts.count("\n* <= ") == DEPTH  # every cut changes the class
    rows = list(csv.DictReader(io.StringIO(ok(work, "gain", "deep.csv", "--format", "csv").stdout)))
    assert [(r["attribute"], r["chosen"], r["threshold"]) for r in rows] == [("x", "yes", "0.5")]


def test_id3_chain_deeper_than_json_loads_reads(tmp_path):
    rows = 1001
    (tmp_path / "d.csv").write_text(chain_csv(rows))
    done = ok(tmp_path, "train", "d.csv", "-a", "id3", "--thresholds", "midpoint", "-o", "d.json", "-f", "text")
    assert done.stderr == (  # (x is 0 to 1000, one a row: the row-number warning is true of it)
        f"Warning: d.csv: column x holds a different whole number on every row, 0 to {rows - 1}, as a row number "
        "does: a tree may cut on it though the rows' order means nothing; if it only numbers the rows, leave it "
        "out with --ignore x\n"
        f"Training set: {rows:,} of {rows:,} correct (100.0%)\n"
        f"ID3 tree: {rows} leaves, {2 * rows - 1} nodes, depth {rows - 1}; model written to d.json\n"
    )
    assert done.stdout.splitlines()[-1] == "|   " * 999 + f"x > {rows - 2}.5: {label(rows - 1)} ({1.0})"
    with pytest.raises(RecursionError):
        json.loads((tmp_path / "d.json").read_text())
    chain(load(tmp_path / "d.json"), rows)
    assert report(ok(tmp_path, "predict", "d.json", "d.csv")).startswith(f"Accuracy: {rows}/{rows} = 1.000")
    assert len(ok(tmp_path, "rules", "d.json").stdout.splitlines()) == 2 * rows + 1
    ok(tmp_path, "prune", "d.json", "--ccp-alpha", "0", "-o", "p.json", "-q")
    chain(load(tmp_path / "p.json"), rows)


def test_diff_with_itself_and_with_a_changed_copy(work):
    """``dtree diff`` walks both 10,000-level trees with a stack: the model against itself is
    equivalent; a copy with the split 9,000 levels down at 9001.25 instead of 9000.5 differs there
    only, and sends the one row x = 9001 (class b) to the leaf of x = 9000 (class a)."""
    import re

    done = ok(work, "diff", "deep.json", "deep.json")
    assert done.stdout.startswith("Trees deep.json (A) and deep.json (B) are equivalent\n")
    text = (work / "deep.json").read_text()
    changed, count = re.subn(r'"threshold": ?9000\.5\b', '"threshold": 9001.25', text)
    assert count == 1
    (work / "changed.json").write_text(changed)
    done = dtree(work, "diff", "deep.json", "changed.json", "--data", "deep.csv", "-f", "json")
    assert done.returncode == 1, done.stderr
    doc = json.loads(done.stdout)
    first = doc["first_difference"]
    assert first["aspects"] == ["threshold"] and len(first["path"]) == 9000
    assert first["path"][-1] == "x > 8999.5" and first["b"]["test"]["threshold"] == 9001.25
    assert doc["summary"]["matching"] == 2 * N - 2 and doc["summary"]["differing"] == 1
    assert doc["agreement"]["rows"] == N and doc["agreement"]["same"] == N - 1
    assert dtree(work, "diff", "deep.json", "changed.json", "--tolerance", "0.75").returncode == 0
