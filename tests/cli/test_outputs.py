"""Outputs never destroy what they should not: devices, named pipes, inputs named as outputs, full disks, closed pipes.

Real processes: the checks are about what reaches the file system and the
exit status. Also: 20 runs at once on the same data agree.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from helpers import SAMPLES

FULL = "Error: standard output: cannot write: No space left on device\n"


def dtree(cwd, *args, stdout=subprocess.PIPE, **kwargs):
    env = dict(os.environ, COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True,
        **kwargs,
    )  # fmt: skip


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    d = tmp_path_factory.mktemp("outputs")
    shutil.copy(SAMPLES / "weather.csv", d)
    done = dtree(d, "train", "weather.csv", "--ignore", "Day", "-q", "-o", "model.json")
    assert done.returncode == 0, done.stderr
    return d


def test_a_device_output_stays_a_device(work):
    done = dtree(work, "train", "weather.csv", "--ignore", "Day", "-q", "-o", os.devnull)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_full_device_as_output_file_is_one_error(work):
    done = dtree(work, "train", "weather.csv", "--ignore", "Day", "-q", "-o", "/dev/full")
    assert (done.returncode, done.stderr) == (1, "Error: /dev/full: cannot write: No space left on device\n")


@pytest.mark.parametrize(
    "args",
    [
        ("train", "weather.csv", "--ignore", "Day"),
        ("train", "weather.csv", "--ignore", "Day", "-f", "json"),
        ("train", "weather.csv", "--ignore", "Day", "-f", "text"),
        ("predict", "model.json", "weather.csv"),
        ("rules", "model.json"),
        ("gain", "weather.csv", "--ignore", "Day"),
        ("prune", "model.json", "--method", "cost-complexity", "--ccp-alpha", "0.01"),
    ],
    ids=["train-rich", "train-json", "train-text", "predict", "rules", "gain", "prune"],
)
def test_a_full_standard_output_is_one_error(work, args):
    with open("/dev/full", "w") as full:
        done = dtree(work, *args, stdout=full)
    assert (done.returncode, done.stderr) == (1, FULL)


def test_a_closed_pipe_ends_quietly(work, tmp_path):
    rows = (work / "weather.csv").read_text().splitlines()
    (tmp_path / "many.csv").write_text("\n".join([rows[0], *rows[1:] * 20_000]) + "\n")
    run = subprocess.Popen(
        [sys.executable, "-m", "dtcli", "predict", str(work / "model.json"), "many.csv"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    run.stdout.read(10)
    run.stdout.close()  # like `| head -c 10`
    stderr = run.stderr.read()
    assert run.wait(60) == 141  # 128 + SIGPIPE, as a filter killed by SIGPIPE
    assert stderr == ""


@pytest.fixture(scope="module")
def wide(work):
    """A table whose Day column makes a 4,200-way ID3 split: its outputs are far larger than a pipe holds."""
    rows = (work / "weather.csv").read_text().splitlines()
    days = [f"D{i}," + row.split(",", 1)[1] for i, row in enumerate(rows[1:] * 300)]
    (work / "wide.csv").write_text("\n".join([rows[0], *days]) + "\n")
    done = dtree(work, "train", "wide.csv", "-q", "-o", "wide.json")
    assert done.returncode == 0, done.stderr
    return work


@pytest.mark.parametrize(
    "args",
    [
        ("train", "wide.csv", "-f", "text"),
        ("rules", "wide.json"),
        ("show", "wide.json", "-f", "svg"),
        ("predict", "wide.json", "wide.csv", "-q"),
    ],
    ids=["train", "rules", "show", "predict"],
)
def test_a_pipe_into_head_ends_quietly(wide, args):
    """A shell pipeline into head: head gets the output's start, dtree writes no error and exits 141."""
    full = dtree(wide, *args)
    assert full.returncode == 0, full.stderr
    script = " ".join(["set -o pipefail;", sys.executable, "-m", "dtcli", *args, "| head -c 100"])
    done = subprocess.run(["bash", "-c", script], cwd=wide, capture_output=True, text=True, env=dict(os.environ))
    assert done.stdout == full.stdout[:100]
    assert "Error" not in done.stderr and "Traceback" not in done.stderr
    assert done.returncode == 141


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("train", "weather.csv", "--ignore", "Day", "-o", "weather.csv"), "weather.csv: -o would overwrite DATA"),
        (("train", "weather.csv", "--ignore", "Day", "-o", "./weather.csv"), "./weather.csv: -o would overwrite DATA"),
        (("predict", "model.json", "weather.csv", "-o", "model.json"), "model.json: -o would overwrite MODEL"),
        (("predict", "model.json", "weather.csv", "-o", "weather.csv"), "weather.csv: -o would overwrite DATA"),
        (("prune", "model.json", "-o", "model.json"), "model.json: -o would overwrite MODEL"),
        (
            ("prune", "model.json", "--data", "weather.csv", "-o", "weather.csv"),
            "weather.csv: -o would overwrite --data",
        ),
        (("rules", "model.json", "-o", "model.json"), "model.json: -o would overwrite MODEL"),
    ],
    ids=["train", "train-other-spelling", "predict-model", "predict-data", "prune", "prune-data", "rules"],
)
def test_an_output_naming_an_input_is_refused(work, tmp_path, args, expected):
    for name in ("weather.csv", "model.json"):
        shutil.copy(work / name, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    done = dtree(tmp_path, *args)
    assert done.returncode == 1
    assert done.stderr == f"Error: {expected}, an input of this command; write the output elsewhere\n"
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_a_named_pipe_output_with_a_reader(work, tmp_path):
    pipe = tmp_path / "model.pipe"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    done = dtree(work, "train", "weather.csv", "--ignore", "Day", "-q", "-o", str(pipe))
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert json.loads(got[0])["format"] == "dtree-model"
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_a_named_pipe_output_without_a_reader_is_one_error(work, tmp_path):
    pipe = tmp_path / "model.pipe"
    os.mkfifo(pipe)
    done = dtree(work, "train", "weather.csv", "--ignore", "Day", "-q", "-o", str(pipe), timeout=60)
    expected = f"Error: {pipe}: a named pipe with no reader; start the reader first\n"
    assert (done.returncode, done.stderr) == (1, expected)


def test_twenty_runs_at_once_agree(tmp_path):
    """20 processes train on the same data at once, each to a file of its own and all to one shared file:
    every model is the same, the shared file is one of them whole, and no temporary file is left."""
    rows = (SAMPLES / "weather-numeric.csv").read_text().splitlines()
    (tmp_path / "data.csv").write_text("\n".join([rows[0], *rows[1:] * 300]) + "\n")

    def one(i):
        own = dtree(tmp_path, "train", "data.csv", "-a", "c45", "-q", "-o", f"m{i}.json")
        shared = dtree(tmp_path, "train", "data.csv", "-a", "c45", "-q", "-o", "shared.json")
        return own.returncode, shared.returncode

    with ThreadPoolExecutor(max_workers=20) as pool:
        assert set(pool.map(one, range(20))) == {(0, 0)}
    models = {(tmp_path / f"m{i}.json").read_bytes() for i in range(20)}
    assert len(models) == 1
    assert (tmp_path / "shared.json").read_bytes() in models
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_bug_is_still_one_line_and_exit_1(run, monkeypatch, tmp_path):
    import dtcli.model.format.model

    def broken(text, source):
        raise ValueError("boom\nsecond line")

    monkeypatch.setattr(dtcli.model.format.model, "loads_model", broken)
    (tmp_path / "m.json").write_text("{}")
    result = run("rules", tmp_path / "m.json")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: internal error (ValueError: boom second line); this is a bug in dtree: please report it with the "
        "command line (DTREE_DEBUG=1 shows where it happened)\n"
    )


def test_stdout_closed_tells_a_gone_reader_from_other_outputs(monkeypatch, tmp_path):
    from dtcli.render.console import stdout_closed

    read, write = os.pipe()
    with os.fdopen(write, "w") as writer:
        monkeypatch.setattr(sys, "stdout", writer)
        assert not stdout_closed()  # a reader is there
        os.close(read)
        assert stdout_closed()
    with open(tmp_path / "f.txt", "w") as regular:
        monkeypatch.setattr(sys, "stdout", regular)
        assert not stdout_closed()
