"""No output replaces an input, a failed run writes nothing, standard streams named as files are the streams.

Real processes where the check is about the file system, standard input or
standard output as the shell sets them up: an input reached through standard
input, a link or a directory of parts; ``-o /dev/stdout`` with standard output
an unlinked file (as test harnesses capture output); a run whose last step
fails after an earlier output was made; a 250-byte output name.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest

from helpers import SAMPLES

REFUSED = "an input of this command; write the output elsewhere\n"


def dtree(cwd, *args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE):
    env = dict(os.environ, COLUMNS="120")
    return subprocess.run(
        [sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE,
    )  # fmt: skip


def files(directory) -> dict[str, bytes]:
    """Every file under ``directory`` (temporary files included) by content."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    """weather.csv, its model, and the same rows as a directory of two Parquet parts."""
    import pandas as pd

    d = tmp_path_factory.mktemp("guarded")
    shutil.copy(SAMPLES / "weather.csv", d)
    frame = pd.read_csv(d / "weather.csv")
    (d / "pq").mkdir()
    frame.iloc[:7].to_parquet(d / "pq" / "p1.parquet")
    frame.iloc[7:].to_parquet(d / "pq" / "p2.parquet")
    done = dtree(d, "train", "weather.csv", "--ignore", "Day", "-q", "-o", "model.json")
    assert done.returncode == 0, done.stderr
    return d


@pytest.fixture
def copy(work, tmp_path):
    """A fresh copy of ``work`` for a test that may change it."""
    shutil.copytree(work, tmp_path, dirs_exist_ok=True)
    return tmp_path


def refused(done, path: str, flag: str, what: str) -> None:
    assert done.returncode == 1
    assert done.stdout == b""
    assert done.stderr.decode() == f"Error: {path}: {flag} would overwrite {what}, {REFUSED}"


@pytest.mark.parametrize(
    "args",
    [
        ("train", "-", "--ignore", "Day", "-q", "-o", "data.csv"),
        ("predict", "model.json", "-", "-q", "-o", "data.csv"),
        ("gain", "-", "--ignore", "Day", "-o", "data.csv"),
        ("evaluate", "-", "--ignore", "Day", "--cv", "2", "-o", "data.csv"),
    ],
    ids=["train", "predict", "gain", "evaluate"],
)
def test_standard_input_read_from_the_output_file_is_refused(copy, args):
    shutil.copy(copy / "weather.csv", copy / "data.csv")
    before = files(copy)
    with open(copy / "data.csv", "rb") as stdin:
        done = dtree(copy, *args, stdin=stdin)
    refused(done, "data.csv", "-o", "DATA (standard input)")
    assert files(copy) == before


def test_standard_input_from_another_file_is_no_clash(copy):
    with open(copy / "weather.csv", "rb") as stdin:
        done = dtree(copy, "train", "-", "--ignore", "Day", "-q", "-o", "other.json", stdin=stdin)
    assert done.returncode == 0, done.stderr
    assert json.loads((copy / "other.json").read_text())["format"] == "dtree-model"


@pytest.mark.parametrize("link", ["hard", "symbolic"])
@pytest.mark.parametrize("what", ["data", "part"])
def test_a_link_to_an_input_is_the_input(copy, link, what):
    source = copy / ("weather.csv" if what == "data" else "pq/p1.parquet")
    made = copy / "link.json"
    made.hardlink_to(source) if link == "hard" else made.symlink_to(source)
    before = files(copy)
    data = "weather.csv" if what == "data" else "pq"
    done = dtree(copy, "train", data, "--ignore", "Day", "-q", "-o", "link.json")
    refused(done, "link.json", "-o", "DATA" if what == "data" else "a part of DATA (pq)")
    assert files(copy) == before
    assert made.is_symlink() == (link == "symbolic")


@pytest.mark.parametrize(
    ("args", "path", "flag"),
    [
        (("train", "pq/", "--ignore", "Day", "-a", "c45", "-q", "-o", "pq/p1.parquet"), "pq/p1.parquet", "-o"),
        (("predict", "model.json", "pq/", "-f", "csv", "-o", "pq/p2.parquet"), "pq/p2.parquet", "-o"),
        (("evaluate", "pq/", "--ignore", "Day", "--cv", "2", "-o", "./pq/p1.parquet"), "./pq/p1.parquet", "-o"),
        (
            ("train", "pq/", "--ignore", "Day", "--cv", "2", "-q", "-o", "m.json", "--metrics-json", "pq/p2.parquet"),
            "pq/p2.parquet",
            "--metrics-json",
        ),
        (
            ("predict", "model.json", "pq/", "-q", "-o", "x.csv", "--metrics-json", "pq/p2.parquet"),
            "pq/p2.parquet",
            "--metrics-json",
        ),  # fmt: skip
    ],
    ids=["train", "predict", "evaluate", "train-metrics", "predict-metrics"],
)
def test_a_part_of_a_parquet_directory_is_an_input(copy, args, path, flag):
    before = files(copy)
    done = dtree(copy, *args)
    refused(done, path, flag, "a part of DATA (pq/)")
    assert files(copy) == before


def test_the_dask_output_directory_may_not_be_the_input_directory(copy, tmp_path_factory):
    empty = tmp_path_factory.mktemp("empty")
    done = dtree(copy, "predict", "model.json", str(empty), "--engine", "dask", "-o", str(empty))
    refused(done, str(empty), "-o", "DATA")


def unlinked_stdout(cwd, *args):
    """Run dtree with standard output an unlinked file (opened, then removed): (run, what it holds)."""
    fd = os.open(cwd / "captured", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.unlink(cwd / "captured")
        done = dtree(cwd, *args, stdout=fd)
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return done, b"".join(chunks)
    finally:
        os.close(fd)


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1", "-", "link-to-stdout"])
def test_standard_output_named_as_a_file_is_written_where_it_points(copy, name):
    """The model lands in the (unlinked) file that is standard output; no file is made in its name's stead."""
    (copy / "link-to-stdout").symlink_to("/dev/stdout")
    before = files(copy)
    done, got = unlinked_stdout(copy, "train", "weather.csv", "--ignore", "Day", "-q", "-o", name)
    assert done.returncode == 0, done.stderr
    assert got == (copy / "model.json").read_bytes()
    assert files(copy) == before
    assert sorted(p.name for p in copy.iterdir()) == sorted(["link-to-stdout", "model.json", "pq", "weather.csv"])


def test_output_named_as_standard_output_follows_what_was_printed(copy):
    """The tree printed first, then the model written into the same descriptor: both, in that order."""
    done, got = unlinked_stdout(copy, "train", "weather.csv", "--ignore", "Day", "-f", "text", "-o", "/dev/stdout")
    printed = dtree(copy, "train", "weather.csv", "--ignore", "Day", "-f", "text")
    assert done.returncode == 0, done.stderr
    assert got == printed.stdout + (copy / "model.json").read_bytes()


def test_predictions_to_dev_stdout_and_standard_error(copy):
    expected = dtree(copy, "predict", "model.json", "weather.csv", "-q").stdout
    done, got = unlinked_stdout(copy, "predict", "model.json", "weather.csv", "-q", "-o", "/dev/stdout")
    assert (done.returncode, got) == (0, expected)
    done = dtree(copy, "predict", "model.json", "weather.csv", "-q", "-o", "/dev/stderr")
    assert (done.returncode, done.stderr, done.stdout) == (0, expected, b"")


def test_a_descriptor_not_open_is_one_error(copy):
    done = dtree(copy, "train", "weather.csv", "--ignore", "Day", "-q", "-o", "/dev/fd/9")
    assert (done.returncode, done.stderr) == (1, b"Error: /dev/fd/9: cannot write: Bad file descriptor\n")


def test_metrics_failing_on_standard_output_leaves_no_predictions_file(copy):
    """predict -o out.csv --metrics-json - with standard output full: exit 1, out.csv neither made nor replaced."""
    for old in (None, b"old\n"):
        if old is not None:
            (copy / "out.csv").write_bytes(old)
        before = files(copy)
        with open("/dev/full", "wb") as full:
            done = dtree(copy, "predict", "model.json", "weather.csv", "-q", "-o", "out.csv", "--metrics-json", "-",
                         stdout=full)  # fmt: skip
        assert (done.returncode, done.stderr) == (1, b"Error: standard output: cannot write: No space left on device\n")
        assert files(copy) == before


def test_the_model_failing_leaves_no_metrics_nor_trace_file(copy):
    before = files(copy)
    args = ("train", "weather.csv", "--ignore", "Day", "--cv", "2", "-q", "--metrics-json", "metrics.json")
    done = dtree(copy, *args, "--trace-file", "trace.txt", "-o", "/dev/full")
    assert (done.returncode, done.stderr) == (1, b"Error: /dev/full: cannot write: No space left on device\n")
    assert files(copy) == before
    done = dtree(copy, *args, "--trace-file", "trace.txt", "-o", "new.json")  # the same run that succeeds: all three
    assert done.returncode == 0, done.stderr
    assert {"metrics.json", "trace.txt", "new.json"} <= set(files(copy))


@pytest.mark.parametrize("length", [250, 255])
def test_a_long_legal_output_name_works(copy, length):
    name = "p" * (length - 4) + ".csv"
    expected = dtree(copy, "predict", "model.json", "weather.csv", "-q").stdout
    done = dtree(copy, "predict", "model.json", "weather.csv", "-q", "-o", name)
    assert done.returncode == 0, done.stderr
    assert (copy / name).read_bytes() == expected
    assert not [p for p in os.listdir(copy) if p.endswith(".tmp")]


def test_a_name_too_long_is_one_error(copy):
    name = "p" * 252 + ".csv"
    done = dtree(copy, "predict", "model.json", "weather.csv", "-q", "-o", name)
    assert (done.returncode, done.stderr) == (1, f"Error: {name}: cannot write: File name too long\n".encode())


def test_a_stop_right_after_the_temporary_file_is_made_leaves_none(run, monkeypatch, tmp_path, work):
    """A stop signal landing after atomic()'s __enter__ returned, before the block's body: the
    context manager's exit never runs, yet the run's end removes the temporary file it registered."""
    from dtcli.cli import signals
    from dtcli.io import write

    real, kept = write.atomic, []

    @contextlib.contextmanager
    def stopped_after_enter(path, mode="w", *, last=False):
        manager = real(path, mode, last=last)
        kept.append(manager)  # (kept alive: its generator never resumes, as in the race)
        manager.__enter__()
        assert [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]  # made
        raise signals.Interrupt(signal.SIGTERM)
        yield  # pragma: no cover

    monkeypatch.setattr(write, "atomic", stopped_after_enter)
    (tmp_path / "out.json").write_text("old\n")
    with pytest.raises(signals.Interrupt):
        run("train", work / "weather.csv", "--ignore", "Day", "-q", "-o", tmp_path / "out.json")
    assert kept and kept[0].gen.gi_frame is not None  # the generator did not clean up
    assert sorted(os.listdir(tmp_path)) == ["out.json"]
    assert (tmp_path / "out.json").read_text() == "old\n"


# Run as a real process: SIGTERM sent right after a context manager's __enter__ hands over the
# temporary file's handle (a file object named by its descriptor), before the block's body runs.
RACE = """
import contextlib, os, signal, sys
enter = contextlib._GeneratorContextManager.__enter__
def stopped(self):
    value = enter(self)
    if isinstance(getattr(value, "name", None), int) and any(p.endswith(".tmp") for p in os.listdir(".")):
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(100000):
            pass
    return value
contextlib._GeneratorContextManager.__enter__ = stopped
sys.argv = ["dtree", *sys.argv[1:]]
from dtcli.__main__ import run
run()
"""


@pytest.mark.parametrize(
    "args",
    [
        ("train", "weather.csv", "--ignore", "Day", "-q", "-o", "out.json"),
        ("predict", "model.json", "weather.csv", "-q", "-o", "out.json"),
        ("predict", "model.json", "weather.csv", "-q", "-o", "out.csv", "--metrics-json", "out.json"),
    ],
    ids=["train", "predict", "predict-metrics"],
)
def test_a_stop_between_enter_and_body_in_a_real_run(copy, args):
    (copy / "out.json").write_text("old\n")
    before = files(copy)
    env = dict(os.environ, COLUMNS="120")
    done = subprocess.run([sys.executable, "-c", RACE, *args], cwd=copy, env=env, capture_output=True)
    assert (done.returncode, done.stderr) == (143, b"Interrupted (SIGTERM)\n")
    assert files(copy) == before
