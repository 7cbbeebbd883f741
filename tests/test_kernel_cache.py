"""Where compiled kernels are cached: a directory per version of the kernels' sources."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from dtcli.induction import kernels


def test_cache_dir_is_named_after_the_sources(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    here = Path(kernels.cache_dir())
    assert here.parent == tmp_path / "dtree" / "numba"
    assert len(here.name) == 16 and kernels.cache_dir() == str(here)


def test_cache_dir_changes_when_any_kernel_source_changes(monkeypatch, tmp_path):
    copy = tmp_path / "induction"
    shutil.copytree(Path(kernels.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(kernels, "__file__", str(copy / "kernels.py"))
    before = kernels.cache_dir()
    assert before == kernels.cache_dir()
    scan = copy / "cart_scan.py"  # a callee in another file: numba alone would not notice
    scan.write_text(scan.read_text() + "\n# changed\n")
    assert kernels.cache_dir() != before


def test_cache_dir_is_given_to_numba_even_when_it_was_imported_first(monkeypatch, tmp_path):
    config = pytest.importorskip("numba.core.config")
    monkeypatch.setenv("NUMBA_CACHE_DIR", "")  # empty counts as unset; monkeypatch restores it
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(config, "CACHE_DIR", "")
    kernels.use_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == config.CACHE_DIR == kernels.cache_dir()


def test_a_cache_dir_the_user_chose_is_kept(monkeypatch, tmp_path):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    kernels.use_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")
