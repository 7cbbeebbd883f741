"""Fixtures shared by all tests (helpers: tests/helpers.py) and the ``compiled`` marker, set by path and source."""

from __future__ import annotations

import inspect
import os
import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import SAMPLES, load

TESTS = Path(__file__).resolve().parent

# The suite starts dtree in thousands of subprocesses. Where PYTHONDONTWRITEBYTECODE is set (as on
# some CI machines), each of them compiled dtcli's modules from source again: about 0.18 s of the
# 0.5 s a small run takes. The tests let Python keep its bytecode (as an installed dtree does).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# Tests of the compiled (numba) engines and kernels: every test below these folders ...
COMPILED_FOLDERS = ("induction/levelwise", "induction/cart", "induction/kernels")
# ... every test in a module that imports numba, and every test that asks for the compiled engine.
IMPORTS_NUMBA = re.compile(r"^\s*(import numba|from numba\b)|importorskip\(\s*[\"']numba", re.MULTILINE)
ASKS_FOR_NUMBA = re.compile(
    r"DTREE_ENGINE|engine\s*=\s*[\"'](numba|compiled)|[\"']compiled[\"']|\bgrown_both\(|\bboth\("
)


def compiled(item) -> bool:
    """True for a test that compiles kernels (``-m "not compiled"`` leaves it out)."""
    path = Path(str(item.path)).resolve()
    folder = path.parent.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else ""
    if any(folder == f or folder.startswith(f + "/") for f in COMPILED_FOLDERS):
        return True
    if IMPORTS_NUMBA.search(path.read_text()):
        return True
    function = getattr(item, "function", None)
    return function is not None and bool(ASKS_FOR_NUMBA.search(inspect.getsource(function)))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if compiled(item):
            item.add_marker(pytest.mark.compiled)


@pytest.fixture
def weather():
    """Mitchell's PlayTennis table (Day left out)."""
    return load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))


@pytest.fixture
def run(monkeypatch):
    """``run(*args, input=None)`` -> click Result (exit_code, stdout, stderr), in-process."""
    from dtcli.cli import cli

    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("NO_COLOR", raising=False)

    def invoke(*args, input=None):
        return CliRunner().invoke(cli, [str(a) for a in args], input=input, catch_exceptions=False)

    return invoke
