"""Where numba keeps compiled kernels: a directory named after the kernels' sources.

numba notices when a function's own file changes, but not when a function or a constant it
takes from another file does; stale machine code then runs (a hang or a crash was seen). The
directory is therefore named after a digest of every kernel file (every module in a ``kernels``
package of ``dtcli.induction``) and of every ``dtcli`` module those import, transitively. Editing
anything else (a docstring in the grower, the CLI) keeps the cache; editing a kernel or what it
reads starts a new one, so stale code can never be loaded.

The digest also covers where the package lives. numba files a kernel's machine code under the
path of its source, so two copies of the same sources (two virtual environments, a checkout and
its clone) share nothing in one directory; what dtree notes there itself (which variants were
compiled, ``compiling.marker``) would otherwise speak for a copy that never compiled them.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

from dtcli.induction.kernels.shipped import seed

INDUCTION = Path(__file__).resolve().parent.parent
# as numba names the sources' folders (``os.path.abspath``, symbolic links kept)
NAMED = Path(os.path.abspath(__file__)).parent.parent
PACKAGE_ROOT = INDUCTION.parent.parent  # the directory that holds ``dtcli``


# the modules of ``kernels`` packages that compile nothing: the cache's, and the kernels built at install
NOT_KERNELS = ("cache.py", "shipped.py", "prebuild.py", "install.py")


def kernel_files(induction: Path = INDUCTION) -> list[Path]:
    """Every kernel module under ``induction`` and the ``dtcli`` modules they import, sorted."""
    root = induction.parent.parent
    todo = sorted(
        p
        for p in induction.rglob("*.py")
        if "kernels" in p.relative_to(induction).parts[:-1] and p.name not in NOT_KERNELS
    )
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(p for p in imported_files(path, root) if p not in seen)
    return sorted(seen)


# ``import dtcli.a.b``, ``from dtcli.a import b, c`` (names in parentheses may span lines); also indented
IMPORT = re.compile(
    r"^[ \t]*(?:import[ \t]+(dtcli[\w.]*)|from[ \t]+(dtcli[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*))", re.M
)


def imported_files(path: Path, root: Path) -> list[Path]:
    """The files of the ``dtcli`` modules that ``path`` imports (at any depth of its code; read with a
    regular expression, not parsed: this runs before every compiled run, and parsing took 0.4 s)."""
    found = []
    for plain, module, listed in IMPORT.findall(path.read_text(encoding="utf-8")):
        names = [plain] if plain else [module]
        if module:
            names += [f"{module}.{name.split()[0]}" for name in listed.strip("()").split(",") if name.split()]
        for name in names:
            base = root.joinpath(*name.split("."))
            for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                if candidate.is_file():
                    found.append(candidate)
    return found


def content_key(induction: Path = INDUCTION) -> str:
    """A digest of the kernel sources (``kernel_files``: each one's path under the directory that holds
    ``dtcli``, and its bytes), wherever they live: 16 hexadecimal digits (this package's worked out
    once a process: a run asks for it several times, each reading some 36 files)."""
    if induction == INDUCTION and _CONTENT:
        return _CONTENT[0]
    digest = hashlib.sha256()
    for path in kernel_files(induction):
        digest.update(path.relative_to(induction.parent.parent).as_posix().encode() + b"\0" + path.read_bytes())
    if induction == INDUCTION:
        _CONTENT.append(digest.hexdigest()[:16])
    return digest.hexdigest()[:16]


def source_key(induction: Path = INDUCTION) -> str:
    """A digest of the kernel sources (``content_key``) and of where they live: 16 hexadecimal digits."""
    where = str(NAMED if induction == INDUCTION else induction)
    return hashlib.sha256(where.encode() + b"\0" + content_key(induction).encode()).hexdigest()[:16]


_CONTENT: list[str] = []  # this package's content key, once worked out


def cache_dir(induction: Path = INDUCTION) -> str:
    """``~/.cache/dtree/numba/<key>`` (or under ``$XDG_CACHE_HOME``), the key ``source_key()``."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "dtree" / "numba" / source_key(induction))


def chosen_dir() -> str:
    """The directory ``use_cache_dir`` gives numba (without setting anything): ``cache_dir()``, or the
    sources' key under a ``NUMBA_CACHE_DIR`` the user set (kept as it is if already keyed)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if not chosen:
        return cache_dir()
    key = source_key()
    return chosen if Path(chosen).name == key else str(Path(chosen) / key)  # (a child process inherits it keyed)


def prepared_dir() -> str:
    """``chosen_dir()``, with the kernels compiled when dtree was installed copied into it the first
    time a process of this machine looks at it (``shipped.seed``)."""
    directory = chosen_dir()
    seed(directory, NAMED, content_key)
    return directory


def use_cache_dir() -> None:
    """Point numba at the cache directory of these kernel sources (``prepared_dir``); call it before
    the kernels' modules are imported (numba reads the setting when a function is decorated).

    ``cache_dir()`` by default; a ``NUMBA_CACHE_DIR`` the user set is the base under which the
    sources' key names a sub-directory, so that no setting lets stale machine code be loaded.
    """
    os.environ["NUMBA_CACHE_DIR"] = prepared_dir()
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba was imported before the variable was set
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]


_LOADED: dict[str, object] = {}


def load(module: str):
    """The kernels module ``module``, imported once with the cache directory set (``use_cache_dir``),
    or None when numba cannot be used here (it is missing or fails to load)."""
    if module not in _LOADED:
        import importlib

        use_cache_dir()
        try:
            _LOADED[module] = importlib.import_module(module)
        except Exception:
            _LOADED[module] = None
    return _LOADED[module]
