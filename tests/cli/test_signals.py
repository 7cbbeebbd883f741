"""Ctrl-C and SIGTERM: one line, exit 130 or 143, no temporary file, the previous output intact.

Real processes, stopped at many points of a run (reading, growing, pruning,
writing): whatever the moment, the run either finished (exit 0, the new
model) or stopped (the one line, the old model byte for byte).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

LINES = {signal.SIGINT: "Interrupted\n", signal.SIGTERM: "Interrupted (SIGTERM)\n"}
STATUS = {signal.SIGINT: 130, signal.SIGTERM: 143}


def start(cwd, *args, stdin=subprocess.DEVNULL):
    env = dict(os.environ, COLUMNS="120")
    return subprocess.Popen(
        [sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """A table that takes the reference engine a second or two, and the model it gives."""
    d = tmp_path_factory.mktemp("signals")
    rng = np.random.default_rng(7)
    n = 30_000
    x = rng.normal(size=(n, 6)).round(3)
    c = rng.integers(0, 5, size=(n, 2))
    y = np.where(x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=0.8, size=n) > c[:, 0] * 0.2, "yes", "no")
    rows = [",".join(map(str, [*a, *(f"v{k}" for k in b), label])) for a, b, label in zip(x, c, y)]
    header = ",".join([*(f"x{i}" for i in range(6)), "c0", "c1", "y"])
    (d / "data.csv").write_text("\n".join([header, *rows]) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "dtcli", "train", "data.csv", "-a", "c45", "--engine", "reference", "-qo", "new.json"],
        cwd=d, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return d


def catching(run, limit: float = 10.0) -> None:
    """Wait until ``run`` catches SIGTERM (its SigCgt mask in /proc): dtree's first handlers, for every
    stop signal at once (dtcli/stops.py), are in place. Before that the interpreter itself is starting
    (some 20 ms, far more on a loaded machine) and no program's Python code can answer a signal. (Not
    SIGINT's bit: Python catches SIGINT from its own start, and a SIGINT then is fatal to any program.)"""
    signum = signal.SIGTERM
    status = f"/proc/{run.pid}/status"
    if not os.path.exists(status):
        time.sleep(0.1)  # (no /proc: about when dtree has started)
        return
    end = time.monotonic() + limit
    while time.monotonic() < end and run.poll() is None:
        with open(status) as lines:
            mask = next((int(line.split()[1], 16) for line in lines if line.startswith("SigCgt:")), 0)
        if mask >> (int(signum) - 1) & 1:
            return
        time.sleep(0.002)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_run_stopped_anywhere_ends_cleanly(work, tmp_path, signum):
    new = (work / "new.json").read_bytes()
    old = b'{"old": "model"}\n'
    outcomes = set()
    for delay in (0.0, 0.05, 0.1, 0.3, 0.6, 1.0, 1.5, 2.0, 2.3, 2.6):  # from the moment dtree catches signals
        (tmp_path / "out.json").write_bytes(old)
        run = start(tmp_path, "train", str(work / "data.csv"), "-a", "c45", "--engine", "reference", "-qo", "out.json")
        catching(run)
        time.sleep(delay)
        run.send_signal(signum)
        stdout, stderr = run.communicate(timeout=60)
        assert "Traceback" not in stderr
        if run.returncode == 0:
            assert (tmp_path / "out.json").read_bytes().replace(str(work / "data.csv").encode(), b"data.csv") == new
            outcomes.add("finished")
        else:
            assert run.returncode == STATUS[signum], stderr
            assert stderr == LINES[signum]
            assert (tmp_path / "out.json").read_bytes() == old
            outcomes.add("stopped")
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file
    assert "stopped" in outcomes


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_run_waiting_for_input_stops_with_one_line(tmp_path, signum):
    run = start(tmp_path, "train", "-", stdin=subprocess.PIPE)
    catching(run)
    time.sleep(0.5)
    run.send_signal(signum)
    stdout, stderr = run.communicate(timeout=30)
    assert (run.returncode, stderr, stdout) == (STATUS[signum], LINES[signum], "")


def test_a_model_written_by_a_finished_run_is_complete(work):
    model = json.loads((work / "new.json").read_text())
    assert model["format"] == "dtree-model"


def test_a_stop_wrapped_on_its_way_up_is_still_the_stop():
    """Python 3.11 wraps an exception raised in ``__set_name__`` (a stop arriving while pandas makes
    its dataclasses) in a RuntimeError: the run ends as the stop (exit 130, its line), not as an
    internal error. Made here as the import does: a class whose attribute raises when named."""
    script = (
        "import sys\n"
        "from dtcli.cli import signals\n"
        "class Named:\n"
        "    def __set_name__(self, owner, name):\n"
        "        raise signals.Interrupt(2)\n"
        "import dtcli.cli.train as train\n"
        "def bomb(*args, **kwargs):\n"
        "    type('Handles', (), {'field': Named()})\n"
        "train.command.callback = bomb\n"
        "sys.argv = ['dtree', 'train', 'x.csv']\n"
        "from dtcli.cli import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == STATUS[signal.SIGINT], done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr


def test_the_stop_within_a_chain_is_found():
    from dtcli.cli.signals import Interrupt, interrupt_within

    stop = Interrupt(signal.SIGTERM)
    try:
        try:
            raise stop
        except Interrupt as exc:
            raise RuntimeError("Error calling __set_name__") from exc
    except RuntimeError as wrapped:
        assert interrupt_within(wrapped) is stop
    assert interrupt_within(ValueError("x")) is None
    looped = ValueError("a")
    looped.__context__ = looped  # a chain that comes back on itself ends the walk
    assert interrupt_within(looped) is None
