"""The bad-input corpus (tests/fixtures/bad/, format in its README): each case exits 1 (or its ``status:``)
with its exact one-line error, or, with ``status: 0``, succeeds with its exact output.

Every case runs as a real process in a directory of its own, so a traceback,
a stray line, a hang, a temporary file left behind or a changed input cannot
hide. The cases run a few at a time (they are separate processes).
"""

from __future__ import annotations

import base64
import gzip
import importlib.util
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "bad"
TIMEOUT = 120  # seconds; a case that takes longer is a hang (the slowest, a 20 MB model, takes 15 s of CPU)
ENCODINGS = ("", "noeol", "base64", "gzip", "python", "python-gzip", "fifo")
HEADERS = ("status", "env", "closed", "stdout", "needs")  # the optional lines after the description
REDIRECT = {"stdin": "<&-", "stdout": ">&-", "stderr": "2>&-"}  # how sh closes each stream


@dataclass
class Case:
    """One parsed ``.case`` file."""

    name: str
    description: str
    steps: list[list[str]]
    expected: str
    files: dict[str, tuple[str, str]] = field(default_factory=dict)
    status: int = 1
    env: dict[str, str] = field(default_factory=dict)  # set for the case's run (not the set-up steps)
    closed: list[str] = field(default_factory=list)  # stdin, stdout, stderr: closed for the case's run
    stdout: str | None = None  # a success's expected standard output: the block of that name
    needs: tuple[str, ...] = ()  # Python modules the case needs (pyarrow for Parquet); skipped without


def parse_case(path: Path) -> Case:
    """A case file as a Case (a malformed one fails loudly: the corpus is code)."""
    lines = path.read_text(encoding="utf-8").removesuffix("\n").split("\n")
    assert lines[0].startswith("# "), f"{path.name}: the first line must be '# description'"
    steps, expected, files, i = [], None, {}, 1
    status, env, closed, stdout, needs = 1, {}, [], None, ()
    while i < len(lines) and lines[i].partition(": ")[0] in HEADERS:
        key, _, value = lines[i].partition(": ")
        if key == "status":  # dtree diff: 2 is trouble, as diff(1)'s
            status = int(value)
        elif key == "env":
            name, equals, setting = value.partition("=")
            assert equals, f"{path.name}, line {i + 1}: expected 'env: NAME=VALUE'"
            env[name] = setting
        elif key == "closed":
            assert value in REDIRECT, f"{path.name}, line {i + 1}: closed: one of {', '.join(REDIRECT)}"
            closed.append(value)
        elif key == "needs":  # an optional dependency (pyarrow for Parquet)
            needs = tuple(value.split())
        else:
            stdout = value
        i += 1
    while i < len(lines) and not lines[i].startswith("==="):
        line = lines[i]
        if line.startswith("$ "):
            steps.append(shlex.split(line[2:]))
        elif line.strip():
            assert steps and expected is None, f"{path.name}, line {i + 1}: expected '$ args' or '=== file'"
            assert lines[i - 1].startswith("$ "), f"{path.name}, line {i + 1}: the error follows the last '$' line"
            expected = line
        i += 1
    assert steps, f"{path.name}: needs a '$ args' line"
    assert expected is not None or status == 0 or "stderr" in closed, f"{path.name}: needs the expected error"
    while i < len(lines):
        head = lines[i][3:].split()
        assert lines[i].startswith("=== ") and head, f"{path.name}, line {i + 1}: expected '=== NAME [ENCODING]'"
        name, encoding = head[0], (head[1] if len(head) > 1 else "")
        assert encoding in ENCODINGS, f"{path.name}, line {i + 1}: unknown encoding {encoding!r}"
        j = i + 1
        while j < len(lines) and not lines[j].startswith("=== "):
            j += 1
        body = "".join(line + "\n" for line in lines[i + 1 : j])
        files[name] = (encoding, body)
        i = j
    assert stdout is None or stdout in files, f"{path.name}: stdout: {stdout} names no '=== {stdout}' block"
    return Case(path.stem, lines[0][2:], steps, expected or "", files, status, env, closed, stdout, needs)


def content(encoding: str, body: str) -> bytes:
    """The bytes of a case file's block."""
    if encoding == "noeol":
        return body.removesuffix("\n").encode("utf-8")
    if encoding == "base64":
        return base64.b64decode("".join(body.split()))
    if encoding in ("python", "python-gzip"):
        value = eval(body, {"gzip": gzip})  # the corpus is the project's own code
        data = value.encode("utf-8", "surrogatepass") if isinstance(value, str) else value
        return gzip.compress(data, mtime=0) if encoding == "python-gzip" else data
    data = body.encode("utf-8", "surrogatepass")
    return gzip.compress(data, mtime=0) if encoding == "gzip" else data


def snapshot(directory: Path) -> dict[str, bytes | str]:
    """What a directory holds, its subdirectories' files included: regular files by content, anything else by kind."""
    out = {}
    for p in sorted(directory.rglob("*")):
        name = str(p.relative_to(directory))
        out[name] = p.read_bytes() if p.is_file() and not p.is_fifo() else ("fifo" if p.is_fifo() else "other")
    return out


def dtree(cwd: Path, args: list[str], case: Case | None = None) -> subprocess.CompletedProcess:
    """``dtree ARGS`` in ``cwd``; with ``case``, in its environment and with its streams closed (by sh)."""
    env = dict(os.environ, COLUMNS="120", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "dtcli", *args]
    if case is not None:
        env.update(case.env)
        if case.closed:
            command = ["sh", "-c", f'exec "$@" {" ".join(REDIRECT[c] for c in case.closed)}', "sh", *command]
    try:
        return subprocess.run(
            command,
            cwd=cwd,
            env=env,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -1, b"", f"hung: no end after {TIMEOUT} s".encode())


def run_case(case: Case, root: Path) -> dict:
    """Set the case's directory up, run its steps, and record what the last one did."""
    missing = [module for module in case.needs if importlib.util.find_spec(module) is None]
    if missing:
        return {"skip": f"needs {', '.join(missing)}"}
    work = root / case.name
    work.mkdir()
    for name, (encoding, body) in case.files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)  # (a NAME may be DIR/NAME: a directory of parts)
        if encoding == "fifo":
            os.mkfifo(work / name)
        else:
            (work / name).write_bytes(content(encoding, body))
    for step in case.steps[:-1]:
        done = dtree(work, step)
        if done.returncode != 0:
            return {"setup": f"set-up step {shlex.join(step)!r} failed: {done.stderr.decode(errors='replace')}"}
    before = snapshot(work)
    done = dtree(work, case.steps[-1], case)
    return {"done": done, "before": before, "after": snapshot(work)}


CASES = sorted(CORPUS.glob("*.case"))


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Every case's outcome, run a few processes at a time."""
    root = tmp_path_factory.mktemp("bad")
    cases = [parse_case(p) for p in CASES]
    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        outcomes = pool.map(lambda c: run_case(c, root), cases)
        return {c.name: (c, o) for c, o in zip(cases, outcomes)}


def test_corpus_is_large_enough():
    assert len(CASES) >= 80


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(results, path):
    case, outcome = results[path.stem]
    if "skip" in outcome:
        pytest.skip(outcome["skip"])
    assert "setup" not in outcome, outcome.get("setup")
    done = outcome["done"]
    stderr = done.stderr.decode("utf-8", errors="replace")
    assert "Traceback" not in stderr, stderr
    assert done.returncode == case.status, f"exit {done.returncode}: {stderr}"
    assert stderr == (case.expected + "\n" if case.expected else ""), stderr
    assert done.stdout == (content(*case.files[case.stdout]) if case.stdout else b"")
    assert outcome["after"] == outcome["before"], "the command created or changed a file"
