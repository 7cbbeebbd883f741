"""Ctrl-C or SIGTERM during a cross-validation in several processes: one line, 130 or 143, no process left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

LINES = {signal.SIGINT: "Interrupted\n", signal.SIGTERM: "Interrupted (SIGTERM)\n"}
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """A table on which each fold takes the reference engine a second or more."""
    path = tmp_path_factory.mktemp("cv-signals") / "data.csv"
    rng = np.random.default_rng(5)
    n = 20_000
    x = rng.normal(size=(n, 5)).round(3)
    y = np.where(x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=0.8, size=n) > 0, "yes", "no")
    rows = [",".join(map(str, [*a, label])) for a, label in zip(x, y)]
    path.write_text("\n".join([",".join([*(f"x{i}" for i in range(5)), "y"]), *rows]) + "\n")
    return path


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_parallel_cross_validation_stops_with_its_workers(data, tmp_path, signum):
    args = ["evaluate", str(data), "-a", "c45", "--engine", "reference", "--cv", "10", "--jobs", "2"]
    run = subprocess.Popen([sys.executable, "-m", "dtcli", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)  # fmt: skip
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and run.poll() is None and time.monotonic() < deadline:
        workers |= children(run.pid)
        time.sleep(0.05)
    assert len(workers) == 2, "the workers did not start"
    time.sleep(0.5)
    run.send_signal(signum)
    stdout, stderr = run.communicate(timeout=60)
    assert (run.returncode, stderr, stdout) == (STATUS[signum], LINES[signum], "")
    assert not [pid for pid in workers if alive(pid)]
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_the_whole_group_leaves_no_process(data, tmp_path, signum):
    """A terminal's Ctrl-C goes to the whole process group: the workers ignore it and the parent ends
    them; a SIGTERM to the group ends the workers at once and the parent with its one line."""
    args = ["evaluate", str(data), "-a", "c45", "--engine", "reference", "--cv", "10", "--jobs", "2"]
    run = subprocess.Popen([sys.executable, "-m", "dtcli", *args], cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    workers: set[int] = set()
    deadline = time.monotonic() + 60
    while len(workers) < 2 and run.poll() is None and time.monotonic() < deadline:
        workers |= children(run.pid)
        time.sleep(0.05)
    assert len(workers) == 2, "the workers did not start"
    time.sleep(0.5)
    os.killpg(run.pid, signum)
    stdout, stderr = run.communicate(timeout=60)
    assert (run.returncode, stderr, stdout) == (STATUS[signum], LINES[signum], "")
    assert not [pid for pid in workers if alive(pid)]
