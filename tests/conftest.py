"""Fixtures shared by all tests (helpers: tests/helpers.py) and the ``compiled`` marker, set by path and source."""

from __future__ import annotations

import ast
import functools
import inspect
import os
import re
import sys
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner

import dtcli
from helpers import SAMPLES, load

TESTS = Path(__file__).resolve().parent
# the directory that holds dtcli as these tests import it (not resolved: numba files kernels by that path)
DTCLI_ROOT = Path(os.path.abspath(dtcli.__file__)).parent.parent

# The suite starts dtree in thousands of subprocesses. Where PYTHONDONTWRITEBYTECODE is set (as on
# some CI machines), each of them compiled dtcli's modules from source again: about 0.18 s of the
# 0.5 s a small run takes. The tests let Python keep its bytecode (as an installed dtree does).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# Each test's own environment (a HOME, a NUMBA_CACHE_DIR) would start a resident process of its own
# (dtcli/resident), each holding its memory for minutes: the suite runs every command on its own, and
# tests/cli/test_resident.py turns the resident process on where it tests it.
os.environ["DTREE_RESIDENT"] = "0"
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
    imports, asking = source_facts(path)
    if imports:
        return True
    function = getattr(item, "function", None)
    if function is None:
        return False
    code = getattr(function, "__code__", None)
    found = asking.get(code.co_firstlineno) if code is not None else None
    return found if found is not None else bool(ASKS_FOR_NUMBA.search(inspect.getsource(function)))


@functools.cache
def source_facts(path: Path) -> tuple[bool, dict[int, bool]]:
    """Whether the test file at ``path`` imports numba, and for each function in it (by the line it
    starts on, its first decorator's: ``co_firstlineno``) whether its source asks for the compiled
    engines; read once a file (``inspect.getsource`` for each of 4,000 tests took seconds a worker)."""
    text = path.read_text()
    if IMPORTS_NUMBA.search(text):
        return True, {}
    lines = text.splitlines()
    asking = {}
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno] + [d.lineno for d in node.decorator_list])
            asking[start] = bool(ASKS_FOR_NUMBA.search("\n".join(lines[start - 1 : node.end_lineno])))
    return False, asking


def pytest_addoption(parser):
    parser.addoption(
        "--variants",
        action="store_true",
        help="also run the tests of the kernels' other variants (nominal codes in 4 bytes, value ranks in "
        "2): each compiles its sets again, some ten minutes of CPU on a new machine",
    )


def pytest_collection_modifyitems(config, items):
    """Marks the compiled tests, and puts the files that hold any last (the ``LONGEST`` of them first):
    under pytest-xdist (which hands out whole files in this order) the other files run while the first
    worker to reach a compiled test fills the kernel cache (``warm_kernels``)."""
    late = set()
    skip_variant = pytest.mark.skip(reason="a kernel variant: compiles its sets again; run with --variants")
    for item in items:
        if item.get_closest_marker("variants") is not None and not config.getoption("--variants"):
            item.add_marker(skip_variant)
        if compiled(item):
            item.add_marker(pytest.mark.compiled)
            late.add(item.path)

    def place(item) -> tuple[bool, bool]:
        longest = any(item.path.is_relative_to(TESTS / name) for name in LONGEST)
        return item.path in late, not longest

    items.sort(key=place)  # (stable: the order within each group stays)


# the files that take longest (minutes on one worker, as a CI run's --durations shows), handed out first
# among the compiled ones: started last, one of them kept a worker busy long after the other had finished
LONGEST = (
    "cli/test_deep_tree.py",
    "induction/distributed/test_dask_prune.py",
    "induction/distributed/test_dask_cart.py",
)


@pytest.fixture(autouse=True)
def warm_kernels(request):
    """Before the first compiled test, once per kernel cache, ``dtree warm-up`` compiles every kernel:
    on a new machine the workers would otherwise each compile the same kernels at once, minutes of
    CPU over. The other workers wait for it (a file lock) and then load the kernels from the cache."""
    if request.node.get_closest_marker("compiled") is not None and not WARMED:
        warm_up_once(request.config.getoption("--variants"))


WARMED: list[bool] = []  # this process has seen the cache warmed

# the warm-up without the variants' jobs (``warmup.is_variant``) unless --variants: the same kernels
WARM_UP = (
    "import sys\n"
    "from dtcli.cli.warmup import JOBS, is_variant, warm_up\n"
    "jobs = tuple(job for job in JOBS if sys.argv[1] == 'all' or not is_variant(job))\n"
    "warm_up(jobs, 2, lambda text: None)\n"
)


def warm_up_once(variants: bool) -> None:
    import fcntl
    import hashlib
    import subprocess
    import tempfile

    from dtcli.induction.kernels.cache import chosen_dir

    cache = chosen_dir()
    key = hashlib.sha256(cache.encode()).hexdigest()[:16]
    lock = Path(tempfile.gettempdir()) / f"dtree-tests-warm-up-{key}"
    # in the cache itself, not beside the lock: a machine may keep /tmp and lose the cache (a CI runner)
    warmed = Path(cache) / ("dtree-tests-warmed-all" if variants else "dtree-tests-warmed")
    with open(lock, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # (released when the file closes)
        # the marker stands for the variants (numba's index files cannot name them); the rest is
        # looked at as the engine choice looks at it, in case the cache was filled from elsewhere
        marked = warmed.exists() or (Path(cache) / "dtree-tests-warmed-all").exists()
        if not marked or uncached_sets():
            env = dict(os.environ, PYTHONPATH=str(DTCLI_ROOT))
            which = "all" if variants else "common"
            done = subprocess.run([sys.executable, "-c", WARM_UP, which], env=env, timeout=3600)
            left = uncached_sets()
            if done.returncode != 0 or left:  # (the tests compile what they need themselves)
                said = f"the kernel warm-up (exit {done.returncode}) left {left or 'no set'} uncached in {cache}"
                warnings.warn(said, stacklevel=2)
            else:
                warmed.parent.mkdir(parents=True, exist_ok=True)
                warmed.touch()
    WARMED.append(True)


def uncached_sets() -> list[str]:
    """The kernel sets whose index files are not in the cache for this copy of dtcli."""
    from dtcli.induction import compiling

    return compiling.uncached(list(compiling.KERNEL_SETS), None)


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
