"""Kernels compiled at install (dtcli/induction/kernels/shipped.py, prebuild.py, install.py): kept by the
folder of their sources, copied into a run's cache under numba's names for where dtcli is installed, and
loaded there without compiling."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dtcli.induction import compiling
from dtcli.induction.kernels import cache, shipped

ROOT = Path(os.path.abspath(cache.__file__)).parents[3]  # the directory that holds dtcli


def built_folder(tmp_path: Path, **changed) -> Path:
    """A ``built`` folder as ``prebuild.collect`` leaves it, for this machine unless ``changed``: one
    function of kernels/sort.py (an index and two data files) and one variant's mark."""
    built = tmp_path / "built"
    (built / "kernels").mkdir(parents=True)
    for suffix in ("nbi", "1.nbc", "2.nbc"):
        name = f"sort.stable_order-24.py311.{suffix}"
        (built / "kernels" / name).write_bytes(name.encode())
    (built / "dtree-cart-short.compiled").touch()
    manifest = {**shipped.facts(cache.content_key()), "folders": ["kernels"], **changed}
    (built / shipped.MANIFEST).write_text(json.dumps(manifest))
    return built


def seeded(tmp_path: Path, built: Path) -> tuple[int, Path]:
    shipped.SEEN.clear()
    target = tmp_path / "cache"
    return shipped.seed(str(target), cache.NAMED, cache.content_key, built), target


def test_built_kernels_are_copied_under_the_names_numba_gives_them_here(tmp_path, monkeypatch):
    monkeypatch.delenv(shipped.SWITCH, raising=False)
    copied, target = seeded(tmp_path, built_folder(tmp_path))
    assert copied == 4
    numba_named = target / shipped.subdirectory_of(cache.NAMED / "kernels")
    assert sorted(p.name for p in numba_named.iterdir()) == [
        "sort.stable_order-24.py311.1.nbc",
        "sort.stable_order-24.py311.2.nbc",
        "sort.stable_order-24.py311.nbi",
    ]
    assert (numba_named / "sort.stable_order-24.py311.2.nbc").read_bytes() == b"sort.stable_order-24.py311.2.nbc"
    assert (target / "dtree-cart-short.compiled").exists()
    assert (target / shipped.SEEDED).exists()
    assert not list(target.rglob("*.part"))
    # compiling looks for the index where it was put (same naming)
    pattern = compiling.index_glob(str(target), "kernels/sort.py", "stable_order")
    assert Path(pattern).parent == numba_named


def test_a_seeded_cache_is_not_looked_at_again_and_what_a_machine_compiled_is_kept(tmp_path, monkeypatch):
    monkeypatch.delenv(shipped.SWITCH, raising=False)
    built = built_folder(tmp_path)
    target = tmp_path / "cache"
    numba_named = target / shipped.subdirectory_of(cache.NAMED / "kernels")
    numba_named.mkdir(parents=True)
    (numba_named / "sort.stable_order-24.py311.nbi").write_bytes(b"compiled here")
    copied, _ = seeded(tmp_path, built)
    assert copied == 1  # the mark only: the function's index and data were this machine's
    assert (numba_named / "sort.stable_order-24.py311.nbi").read_bytes() == b"compiled here"
    assert not (numba_named / "sort.stable_order-24.py311.1.nbc").exists()
    (target / "dtree-cart-short.compiled").unlink()
    assert seeded(tmp_path, built)[0] == 0  # marked seeded: never again
    assert not (target / "dtree-cart-short.compiled").exists()


@pytest.mark.parametrize(
    "changed",
    [{"sources": "0123456789abcdef"}, {"numba": "0.1.0"}, {"python": "cpython-27"}, {"machine": "another"}],
    ids=["edited sources", "another numba", "another python", "another machine"],
)
def test_kernels_built_for_something_else_are_not_copied(tmp_path, monkeypatch, changed):
    monkeypatch.delenv(shipped.SWITCH, raising=False)
    copied, target = seeded(tmp_path, built_folder(tmp_path, **changed))
    assert copied == 0
    assert sorted(p.name for p in target.iterdir()) == [shipped.SEEDED]


def test_the_switch_copies_nothing_and_leaves_no_mark(tmp_path, monkeypatch):
    monkeypatch.setenv(shipped.SWITCH, "0")
    copied, target = seeded(tmp_path, built_folder(tmp_path))
    assert copied == 0 and not target.exists()


def test_an_unreadable_manifest_or_none_copies_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv(shipped.SWITCH, raising=False)
    built = built_folder(tmp_path)
    (built / shipped.MANIFEST).write_text("{not json")
    assert seeded(tmp_path, built)[0] == 0
    assert seeded(tmp_path, tmp_path / "nowhere")[0] == 0


def test_the_machine_digest_follows_numbas_processor_settings(monkeypatch):
    here = shipped.machine()
    assert here is not None and len(here) == 16
    monkeypatch.setenv("NUMBA_CPU_NAME", "generic")
    assert shipped.machine() != here


@pytest.mark.compiled
def test_a_kernel_built_in_one_place_loads_without_compiling_where_dtcli_is_installed(tmp_path):
    """The whole path: a kernel compiled and collected in one copy of dtcli (as the build does in
    build/lib), that copy moved elsewhere (as a wheel is installed), a run there with an empty cache."""
    built_in, installed = tmp_path / "build" / "lib", tmp_path / "site-packages"
    shutil.copytree(ROOT / "dtcli", built_in / "dtcli", ignore=shutil.ignore_patterns("__pycache__", "built"))
    build_env = dict(os.environ, PYTHONPATH=str(built_in), NUMBA_CACHE_DIR=str(tmp_path / "build-cache"))
    build_env[shipped.SWITCH] = "0"
    build = textwrap.dedent("""
        import numpy as np
        from dtcli.induction.kernels.cache import chosen_dir, use_cache_dir
        use_cache_dir()
        from dtcli.induction.kernels.sort import stable_order
        stable_order(np.array([2.0, 1.0, 3.0]))
        from dtcli.induction.kernels.prebuild import collect
        print(collect(chosen_dir())["folders"])
    """)
    done = subprocess.run(
        [sys.executable, "-c", build], env=build_env, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "kernels" in done.stdout
    shutil.copytree(built_in / "dtcli", installed / "dtcli")
    shutil.rmtree(built_in)

    run_env = dict(os.environ, PYTHONPATH=str(installed), NUMBA_CACHE_DIR=str(tmp_path / "user-cache"))
    run_env.pop(shipped.SWITCH, None)
    run = textwrap.dedent("""
        import numpy as np
        from dtcli.induction import compiling
        print(compiling.uncached(["levelwise"], None) == ["levelwise"])  # (only one kernel was built)
        from dtcli.induction.kernels.cache import use_cache_dir
        use_cache_dir()
        from dtcli.induction.kernels.sort import stable_order
        print(stable_order(np.array([2.0, 1.0, 3.0])).tolist())
        print(sum(stable_order.stats.cache_hits.values()), sum(stable_order.stats.cache_misses.values()))
    """)
    done = subprocess.run(
        [sys.executable, "-c", run], env=run_env, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:3] == ["True", "[1, 0, 2]", "1 0"], done.stdout


def test_the_build_step_runs_prebuild_on_the_files_being_installed_and_never_fails_the_install(tmp_path, monkeypatch):
    install = pytest.importorskip("dtcli.induction.kernels.install")
    from setuptools.command.build_py import build_py

    monkeypatch.setattr(build_py, "run", lambda self: None)
    calls = []

    def run(args, cwd, env, check):
        calls.append((args, cwd, env))
        return subprocess.CompletedProcess(args, 3)

    monkeypatch.setattr(install.subprocess, "run", run)
    step = install.BuildPy.__new__(install.BuildPy)
    step.build_lib, step.editable_mode = str(tmp_path / "lib"), False
    said = []
    step.announce = lambda text, level: said.append(text)
    monkeypatch.delenv(shipped.SWITCH, raising=False)
    step.run()
    ((args, cwd, env),) = calls
    assert args[1:] == ["-m", "dtcli.induction.kernels.prebuild"]
    assert cwd == str(tmp_path / "lib") and env["PYTHONPATH"].split(os.pathsep)[0] == str(tmp_path / "lib")
    assert said == ["dtree: the kernels were not compiled at install (exit status 3); they compile on first use"]
    monkeypatch.setenv(shipped.SWITCH, "0")
    step.run()
    assert len(calls) == 1


def test_kernels_built_by_this_install_fit_this_machine():
    """Where the install's build compiled the kernels (pip install -e . in CI), they are for this
    machine, numba and Python, and a run copies them (sources edited since: skipped)."""
    manifest_file = shipped.BUILT / shipped.MANIFEST
    if not manifest_file.is_file():
        pytest.skip("no kernels were built at install here (DTREE_PREBUILT_KERNELS=0, or not installed by pip)")
    manifest = json.loads(manifest_file.read_text())
    if manifest["sources"] != cache.content_key():
        pytest.skip("the kernel sources were edited since the install")
    assert {key: manifest[key] for key in shipped.FACTS} == shipped.facts(cache.content_key())
    assert set(manifest["folders"]) >= {"kernels", "levelwise/kernels", "cart/kernels", "predict/kernels"}


def test_an_install_run_again_keeps_kernels_built_for_the_same_sources(tmp_path, monkeypatch):
    from dtcli.induction.kernels import prebuild

    def compile_again(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(prebuild.subprocess, "run", compile_again)
    built = built_folder(tmp_path)
    assert prebuild.current(built)
    assert prebuild.build(built) == 0
    stale = built_folder(tmp_path / "stale", sources="0123456789abcdef")
    assert not prebuild.current(stale)
    with pytest.raises(AssertionError, match="compiled again"):
        prebuild.build(stale)
