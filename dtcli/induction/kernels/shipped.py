"""Kernels compiled when dtree was installed, copied into this machine's cache on first use.

Installing dtree from its sources (``pip install .`` or ``pip install -e .``) runs
``prebuild.build`` once, in the build (``install.py``): it compiles every kernel with ``dtree
warm-up`` into a temporary cache directory and keeps numba's files in ``kernels/built`` (next to
this module), each filed under the folder of its source relative to ``dtcli/induction``, with a
manifest of what they were built from and for (``facts``). numba names a cache's sub-directories
after the absolute path of the sources' folder, which the build does not know (a wheel is built
in one place and installed in another), so ``seed`` renames them as numba names them for the
sources where they are installed.

``seed`` runs once for each cache directory, at a run's first look at it (``cache.prepared_dir``):
it copies the built files into the directory when the manifest ``fits`` this run (the same kernel
sources, ``cache.content_key``; the same numba and Python; the same processor), then leaves a mark
there so that it never looks again. numba checks each file again when it loads a kernel: its index
files hold a digest of each source file and of each function's bytecode, and name the processor, so
a file that does not fit is compiled again, never run. A function this machine has compiled already
is left as it is. Nothing is copied with ``DTREE_PREBUILT_KERNELS=0``.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

BUILT = Path(__file__).resolve().parent / "built"  # the files ``build`` keeps (made at install, never committed)
MANIFEST = "manifest.json"
SEEDED = "dtree-seeded"  # in a cache directory: ``seed`` has looked at it
FORMAT = 1
FACTS = ("format", "sources", "numba", "python", "machine")  # what the manifest and this run must agree on
SWITCH = "DTREE_PREBUILT_KERNELS"  # "0": neither build them at install nor copy them at run time


def wanted() -> bool:
    """Whether kernels built at install may be used (``DTREE_PREBUILT_KERNELS`` is not 0)."""
    return os.environ.get(SWITCH, "").strip() != "0"


def subdirectory_of(folder: Path) -> str:
    """The sub-directory of a cache directory in which numba files the kernels of the sources in
    ``folder`` (an absolute path, symbolic links kept): its name and a digest of its path."""
    return f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"


def facts(sources: str) -> dict:
    """What built kernels must have been built with to be used here, ``sources`` the kernel
    sources' ``cache.content_key``: the numba and Python, and the machine (``machine``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        numba = version("numba")
    except PackageNotFoundError:
        numba = None
    python = f"{sys.implementation.cache_tag} {sys.version}"  # (numba keys functions by their bytecode)
    return {"format": FORMAT, "sources": sources, "numba": numba, "python": python, "machine": machine()}


def machine() -> str | None:
    """A digest of what numba compiles for: the target, the processor and its features, as LLVM
    names them here or as ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` set them (numba files the
    code under these too, but a wheel built on another machine would still leave files that say
    its kernels are compiled, so they are not copied at all); None without llvmlite."""
    try:
        import llvmlite.binding as llvm

        found = [llvm.get_process_triple(), llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten()]
    except Exception:  # llvmlite missing or failing to load: numba cannot run here either
        return None
    found += [os.environ.get("NUMBA_CPU_NAME", ""), os.environ.get("NUMBA_CPU_FEATURES", "")]
    return hashlib.sha256("\0".join(found).encode()).hexdigest()[:16]


def fits(manifest: dict, sources: str) -> bool:
    """Whether kernels built as ``manifest`` says may be used here, ``sources`` the kernel sources'
    ``cache.content_key``."""
    return {key: manifest.get(key) for key in FACTS} == facts(sources)


SEEN: set[str] = set()  # cache directories this process has seeded or found seeded


def seed(directory: str, named: Path, sources: Callable[[], str], built: Path = BUILT) -> int:
    """Copy the kernels in ``built`` into the cache ``directory`` if they fit (see the module's
    text) and it has not been seeded: the number of files copied. ``named`` is ``dtcli/induction``
    as numba names it, ``sources()`` the kernel sources' ``cache.content_key``."""
    if directory in SEEN:
        return 0
    SEEN.add(directory)
    target = Path(directory)
    if not wanted() or not (built / MANIFEST).is_file() or (target / SEEDED).exists():
        return 0
    copied = 0
    with contextlib.suppress(OSError, ValueError):
        manifest = json.loads((built / MANIFEST).read_text(encoding="utf-8"))
        if fits(manifest, sources()):
            copied = _copy(built, target, named, manifest)
        target.mkdir(parents=True, exist_ok=True)
        (target / SEEDED).write_text(f"{built}\n{copied} files\n", encoding="utf-8")
    return copied


def _copy(built: Path, target: Path, named: Path, manifest: dict) -> int:
    """Copy every function's files in ``built`` (index last) that ``target`` has no index of."""
    copied = 0
    for relative in manifest.get("folders", []):
        source = built / relative
        into = target / subdirectory_of(named.joinpath(*relative.split("/")))
        into.mkdir(parents=True, exist_ok=True)
        for index in sorted(source.glob("*.nbi")):
            if (into / index.name).exists():
                continue  # compiled on this machine already: kept
            base = index.name[: -len(".nbi")]
            for data in sorted(source.glob(f"{glob.escape(base)}.*.nbc")):
                copied += _place(data, into / data.name)
            copied += _place(index, into / index.name)
    for mark in sorted(built.glob("dtree-*.compiled")):
        if not (target / mark.name).exists():
            copied += _place(mark, target / mark.name)
    return copied


def _place(source: Path, destination: Path) -> int:
    """Copy ``source`` to ``destination`` by way of a temporary name (a concurrent run sees the whole
    file or none)."""
    partial = destination.with_name(f".{destination.name}.{os.getpid()}.part")
    try:
        shutil.copyfile(source, partial)
        os.replace(partial, destination)
    finally:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
    return 1
