"""Where compiled kernels are cached: a directory per version of the kernels' sources."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from dtcli.induction.kernels import cache as kernels


def test_cache_dir_is_named_after_the_sources(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    here = Path(kernels.cache_dir())
    assert here.parent == tmp_path / "dtree" / "numba"
    assert len(here.name) == 16 and kernels.cache_dir() == str(here)


def _copy(tmp_path):
    """A copy of the package tree, so that its files can be edited."""
    package = Path(kernels.__file__).resolve().parent.parent.parent
    shutil.copytree(package, tmp_path / "dtcli", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "dtcli" / "induction"


@pytest.mark.parametrize(
    "edited", ["cart/kernels/scan.py", "levelwise/kernels/c45.py", "criteria/constants.py", "criteria/chisquare.py"]
)
def test_cache_dir_changes_when_a_kernel_or_what_it_imports_changes(tmp_path, edited):
    induction = _copy(tmp_path)
    before = kernels.cache_dir(induction)
    assert before == kernels.cache_dir(induction)
    source = induction / edited  # a callee or a constant in another file: numba alone would not notice
    source.write_text(source.read_text() + "\n# changed\n")
    assert kernels.cache_dir(induction) != before


def test_two_copies_of_the_same_sources_have_a_cache_dir_each(tmp_path):
    """numba files machine code under its source's path: a copy elsewhere (another environment, a
    clone) never loads what this one compiled, so what dtree notes in the directory (the variants
    compiled) must not speak for it either."""
    first, second = _copy(tmp_path / "a"), _copy(tmp_path / "b")
    assert kernels.cache_dir(first) == kernels.cache_dir(first) != kernels.cache_dir(second)
    assert kernels.cache_dir() not in (kernels.cache_dir(first), kernels.cache_dir(second))


@pytest.mark.parametrize(
    "edited",
    ["grow/grower.py", "algorithms.py", "../cli/train.py", "search/c45.py", "search/ties.py", "kernels/cache.py"],
)
def test_cache_dir_stays_when_code_outside_the_kernels_changes(tmp_path, edited):
    induction = _copy(tmp_path)
    before = kernels.cache_dir(induction)
    source = induction / edited
    source.write_text(source.read_text() + "\n# changed\n")
    assert kernels.cache_dir(induction) == before


def test_every_compiled_function_lives_in_a_kernel_file():
    """The cache key covers kernel files only, so numba code anywhere else could go stale."""
    induction = Path(kernels.__file__).resolve().parent.parent
    covered = set(kernels.kernel_files(induction))
    for path in (induction.parent).rglob("*.py"):
        text = path.read_text()
        if "@njit" in text or "@kernel" in text or "from numba" in text or "import numba" in text:
            assert path in covered, path  # (``@kernel``: kernels/jit.py, numba's njit with the cache)


def test_cache_dir_is_given_to_numba_even_when_it_was_imported_first(monkeypatch, tmp_path):
    config = pytest.importorskip("numba.core.config")
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")  # empty counts as unset; monkeypatch restores it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", "")
    kernels.use_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == config.CACHE_DIR == kernels.cache_dir()


def test_a_cache_dir_the_user_chose_is_the_base_of_the_keyed_one(monkeypatch, tmp_path):
    """NUMBA_CACHE_DIR keeps the cache where the user wants it, but still one directory per
    version of the kernels: a user's setting never lets stale machine code load."""
    config = sys.modules.get("numba.core.config")
    if config is not None:  # use_cache_dir hands numba the directory: restore it afterwards
        monkeypatch.setattr(config, "CACHE_DIR", config.CACHE_DIR)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    kernels.use_cache_dir()
    keyed = tmp_path / "mine" / kernels.source_key()
    assert os.environ["NUMBA_CACHE_DIR"] == str(keyed)
    kernels.use_cache_dir()  # again, or in a child process that inherits it: not keyed twice
    assert os.environ["NUMBA_CACHE_DIR"] == str(keyed)


def _parsed_imports(path: Path, root: Path) -> set[Path]:
    """What ``path`` imports from ``dtcli``, found by parsing it (the cache reads imports with a
    regular expression, which is faster)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = []
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in (name for name in names if name.split(".")[0] == "dtcli"):
            base = root.joinpath(*name.split("."))
            found |= {c for c in (base.with_suffix(".py"), base / "__init__.py") if c.is_file()}
    return found


def test_kernel_files_are_those_the_parsed_imports_reach():
    induction = Path(kernels.__file__).resolve().parent.parent
    root = induction.parent.parent
    files = kernels.kernel_files(induction)
    for path in files:
        assert set(kernels.imported_files(path, root)) == _parsed_imports(path, root), path
