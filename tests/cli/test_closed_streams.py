"""Closed standard streams (``<&-``, ``>&-``, ``2>&-``): every command refuses in one line or runs as usual.

Each run is a real process started by ``sh`` with the descriptor closed, as a shell user would. A
command that needs the closed stream exits 1 (``dtree diff``: 2) with one ``Error:`` line, or silently
when standard error is closed too, and writes no file; one that does not need it (``-q -o FILE``,
warnings with standard error closed) exits 0 with the same output file as a run with every stream
open: the file dtree opens must not take the closed descriptor's place.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"
REDIRECT = {"stdin": "<&-", "stdout": ">&-", "stderr": "2>&-", "all": "<&- >&- 2>&-", "none": ""}
NO_STDOUT = "Error: standard output is closed; redirect it to a file (> FILE), or to /dev/null to throw the output away"
NO_STDIN = "Error: standard input is closed; give the data's file name instead of -, or pipe the data in"


def dtree(cwd: Path, args: list[str], closed: str = "none") -> subprocess.CompletedProcess:
    """``dtree ARGS`` with the ``closed`` stream(s) closed; the open ones are pipes (stdin: the null device)."""
    env = dict(os.environ, COLUMNS="120", PYTHONIOENCODING="utf-8")
    env.pop("NO_COLOR", None)
    script = f'exec "$@" {REDIRECT[closed]}'
    return subprocess.run(["sh", "-c", script, "sh", sys.executable, "-m", "dtcli", *args], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120)  # fmt: skip


@pytest.fixture(scope="module")
def work(tmp_path_factory) -> Path:
    """A directory with the weather table, an ID3 and a C4.5 model of it."""
    d = tmp_path_factory.mktemp("closed")
    shutil.copy(SAMPLES / "weather.csv", d / "weather.csv")
    for algorithm, name in (("id3", "id3.json"), ("c45", "c45.json")):
        done = dtree(d, ["train", "weather.csv", "--ignore", "Day", "-a", algorithm, "-q", "-o", name])
        assert done.returncode == 0, done.stderr
    return d


def files(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


# Commands whose output is standard output's data: with it closed, they have nowhere to put it.
NEED_STDOUT = {
    "train": ["train", "weather.csv", "--ignore", "Day"],
    "train-text-and-model": ["train", "weather.csv", "--ignore", "Day", "-f", "text", "-o", "new.json"],
    "train-model-to-stdout": ["train", "weather.csv", "--ignore", "Day", "-o", "-"],
    "train-model-to-dev-stdout": ["train", "weather.csv", "--ignore", "Day", "-q", "-o", "/dev/stdout"],
    "rules-to-dev-fd-1": ["rules", "id3.json", "-o", "/dev/fd/1"],
    "predict": ["predict", "id3.json", "weather.csv"],
    "predict-metrics": ["predict", "id3.json", "weather.csv", "-o", "p.csv", "--metrics-json", "-"],
    "prune": ["prune", "c45.json", "--ccp-alpha", "0.01", "-o", "pruned.json"],
    "rules": ["rules", "id3.json"],
    "gain": ["gain", "weather.csv", "--ignore", "Day"],
    "show": ["show", "id3.json"],
    "evaluate": ["evaluate", "id3.json", "weather.csv"],
    "evaluate-cv": ["evaluate", "weather.csv", "--ignore", "Day", "--cv", "3", "--jobs", "2"],
    "diff": ["diff", "id3.json", "c45.json"],
    "help": ["--help"],
    "version": ["--version"],
    "train-help": ["train", "--help"],
    "warm-up-help": ["warm-up", "--help"],
}


@pytest.mark.parametrize("args", NEED_STDOUT.values(), ids=NEED_STDOUT.keys())
def test_closed_stdout_refused_in_one_line_and_no_file_written(work, args):
    before = files(work)
    done = dtree(work, args, "stdout")
    assert done.returncode == (2 if args[0] == "diff" else 1), done.stderr
    assert done.stderr.decode() == NO_STDOUT + "\n"
    assert files(work) == before


@pytest.mark.parametrize("args", NEED_STDOUT.values(), ids=NEED_STDOUT.keys())
def test_closed_stdout_and_stderr_fail_silently(work, args):
    before = files(work)
    done = dtree(work, args, "all")
    assert done.returncode == (2 if args[0] == "diff" else 1)
    assert done.stdout == done.stderr == b""
    assert files(work) == before


# Commands that write their result to a file: standard output is not needed (nor input, nor error).
TO_FILE = {
    "train": (["train", "weather.csv", "--ignore", "Day", "-q", "-o", "out.json"], "out.json"),
    "train-c45": (["train", "weather.csv", "--ignore", "Day", "-a", "c45", "-q", "-o", "out.json"], "out.json"),
    "predict": (["predict", "id3.json", "weather.csv", "-o", "out.csv"], "out.csv"),
    "prune": (["prune", "c45.json", "--ccp-alpha", "0.01", "-q", "-o", "out.json"], "out.json"),
    "rules": (["rules", "id3.json", "-o", "out.txt"], "out.txt"),
    "gain": (["gain", "weather.csv", "--ignore", "Day", "-o", "out.txt"], "out.txt"),
    "show": (["show", "id3.json", "-f", "dot", "-o", "out.dot"], "out.dot"),
    "evaluate": (["evaluate", "id3.json", "weather.csv", "-o", "out.txt"], "out.txt"),
}


@pytest.mark.parametrize("closed", ["stdout", "all"])
@pytest.mark.parametrize("args, name", TO_FILE.values(), ids=TO_FILE.keys())
def test_output_file_needs_no_stdout(work, tmp_path, args, name, closed):
    """Every stream closed or only standard output: the file is written, byte for byte the file of a
    run with every stream open (the file did not become standard output, nor take a message)."""
    shutil.copytree(work, tmp_path / "open")
    shutil.copytree(work, tmp_path / "closed")
    reference = dtree(tmp_path / "open", args)
    assert reference.returncode == 0, reference.stderr
    done = dtree(tmp_path / "closed", args, closed)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b""
    assert done.stderr == (b"" if closed == "all" else reference.stderr)
    assert files(tmp_path / "closed") == files(tmp_path / "open")
    assert (tmp_path / "closed" / name).stat().st_size > 0


def test_model_file_is_the_model(work, tmp_path):
    """With every stream closed the model file holds the model alone: it predicts the training table
    as the model trained with the streams open does (the ID3 weather tree is 14 of 14 right)."""
    shutil.copy(work / "weather.csv", tmp_path / "weather.csv")
    assert dtree(tmp_path, ["train", "weather.csv", "--ignore", "Day", "-q", "-o", "m.json"], "all").returncode == 0
    done = dtree(tmp_path, ["predict", "m.json", "weather.csv", "-o", "p.csv"])
    assert done.returncode == 0 and done.stderr.decode().startswith("Accuracy: 14/14 = 1.000 (0 errors)\n")


@pytest.mark.parametrize(
    "args", [["train", "weather.csv"], ["gain", "weather.csv"], ["evaluate", "weather.csv", "--cv", "3"]]
)
def test_warnings_with_stderr_closed(work, args):
    """The Day column draws a warning: with standard error closed the run goes on, exit 0, the same output."""
    reference = dtree(work, args)
    assert reference.returncode == 0 and b"Warning: " in reference.stderr
    done = dtree(work, args, "stderr")
    assert done.returncode == 0
    assert done.stdout == reference.stdout and done.stdout


def test_error_with_stderr_closed(work):
    done = dtree(work, ["gain", "weather.csv", "--target", "Nope"], "stderr")
    assert done.returncode == 1 and done.stdout == b""


@pytest.mark.parametrize("args", [["train", "-", "--ignore", "Day"], ["predict", "id3.json", "-"], ["gain", "-"]])
def test_closed_stdin_refused_when_read(work, args):
    before = files(work)
    done = dtree(work, args, "stdin")
    assert done.returncode == 1
    assert done.stderr.decode() == NO_STDIN + "\n"
    assert done.stdout == b""
    assert files(work) == before


def test_closed_stdin_not_needed(work):
    reference = dtree(work, ["train", "weather.csv", "--ignore", "Day"])
    done = dtree(work, ["train", "weather.csv", "--ignore", "Day"], "stdin")
    assert done.returncode == 0 and (done.stdout, done.stderr) == (reference.stdout, reference.stderr)


@pytest.mark.parametrize(
    "args", [["--help"], ["--version"], ["gain", "--help"], ["gain", "weather.csv", "--ignore", "Day"]]
)
def test_full_stdout_one_line(work, args):
    """An open standard output that cannot be written (a full disk) is one Error line as well."""
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    env = dict(os.environ, COLUMNS="120")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "dtcli", *args], cwd=work, env=env, stdout=full,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, timeout=120)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.decode() == "Error: standard output: cannot write: No space left on device\n"
