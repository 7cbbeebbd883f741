"""Which compiled kernels a run needs, whether this machine's cache holds them, and what compiling costs.

numba compiles a kernel the first time it is called and keeps the machine code in the cache
directory (``kernels/cache.py``); a later run loads it in a fraction of a second. The kernels a
run calls from Python fall into sets (``KERNEL_SETS``), one per engine and task: a set is
*cached* when every kernel of it that the run calls has its index file in the cache directory
(numba's naming: ``<module>.<function>-<line>.py<version>.nbi`` in a sub-directory named after
the kernels' directory), a check of a few file names that imports nothing of numba.

``COMPILE_SECONDS`` (each set's compile time, in CPU seconds: one compile runs on one core) was
measured with an empty cache on this project's benchmark tables (``make_data.py``: 10 nominal and 10
numeric attributes, 3 classes, missing values) on a shared 2-core machine; ``backend`` weighs it
against the reference's time (``estimates.py``), and ``DESCEND_SECONDS`` (numpy's prediction per row
and level) against the prediction kernel's compile.
They are estimates: a choice made on them never changes a tree, only how soon it is grown.
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys
from pathlib import Path

from dtcli.induction.kernels.shipped import subdirectory_of

HERE = Path(os.path.abspath(__file__)).parent  # as numba names it (not resolved: numba does not)

# set -> its kernels: (file under dtcli/induction, function, when a run calls it: always, numeric, nominal)
KERNEL_SETS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "levelwise": (
        ("levelwise/kernels/loops.py", "class_counts", "always"),
        ("levelwise/kernels/loops.py", "route", "always"),
        ("levelwise/kernels/loops.py", "spread", "always"),
        ("levelwise/kernels/loops.py", "expand", "numeric"),
        ("kernels/sort.py", "stable_order", "numeric"),
    ),
    "c45": (
        ("levelwise/kernels/c45.py", "c45_numeric", "numeric"),
        ("levelwise/kernels/nominal.py", "c45_nominal_splits", "nominal"),
        ("levelwise/kernels/c45.py", "c45_select", "always"),
    ),
    "id3": (
        ("levelwise/kernels/id3.py", "id3_numeric", "numeric"),
        ("levelwise/kernels/nominal.py", "nominal_splits", "nominal"),
        ("levelwise/kernels/id3.py", "id3_select", "always"),
        ("levelwise/kernels/id3.py", "id3_contested", "always"),
    ),
    "bins": (("levelwise/kernels/bins.py", "c45_binned", "numeric"),),
    "cart": (
        ("cart/kernels/grow.py", "grow_cart", "always"),
        ("kernels/sort.py", "ranked_order", "numeric"),
    ),
    "cart-side": (  # CART classification on more than one thread (cart/parallel.py)
        ("cart/kernels/grow.py", "start", "always"),
        ("cart/kernels/speculate.py", "new_store", "always"),
        ("cart/kernels/speculate.py", "grow_job", "always"),
        ("cart/kernels/frontier.py", "frontier_of", "always"),
        ("cart/kernels/frontier.py", "carve", "always"),
        ("cart/kernels/replay.py", "replay", "always"),
        ("kernels/sort.py", "ranked_order", "numeric"),
    ),
    "regression": (
        ("cart/kernels/regress.py", "grow_regression", "always"),
        ("kernels/sort.py", "ranked_order", "numeric"),
    ),
    "prune": (
        ("prune/pessimistic/kernels/cases.py", "class_counts", "always"),
        ("prune/pessimistic/kernels/prune.py", "prune", "always"),
    ),
    "predict": (("predict/kernels/descend.py", "descend_rows", "always"),),
}

# seconds to compile each set with an empty cache (CPU seconds: one compile runs on one core). Measured
# again on an idle 2-core machine, as a first run's time over a warm run's and numba's compile events
# summed (50,000 rows x 100 attributes x 30 classes, and 20,000 of its rows): the level-wise engine's
# kernels and C4.5's 16 s (C4.5's nominal splits compiled apart from ID3's scores, which took 3 s
# more), pruning's 29 s, CART's one-thread builder 115 s, its threaded builders 139 s. ID3 (its
# nominal splits, 6 s, now counted here), regression and prediction keep their earlier figures (a
# loaded machine; the others were then 9, 2, 15, 55 and 80 s, their kernels since grown)
COMPILE_SECONDS = {
    "levelwise": 9.0,
    "c45": 7.0,
    "id3": 10.0,
    "bins": 3.0,
    "cart": 115.0,
    "cart-side": 139.0,
    "regression": 40.0,
    "prune": 29.0,
    "predict": 12.0,
}
# without a core to compile them beside the reference (backend.beside_engine), the reference stands in
# for kernels not cached only in runs this short (seconds, as estimated in estimates.py): a longer run
# compiles them first, once per machine, rather than pay the reference's time at every run. A first
# run should not take much more than a warm one: CART on a table of 42,000 rows
# and 20 attributes takes the reference about 24 s (CPU, machine shared) against 80 s of compiling
# its threaded builders, and 18.6 s for C4.5 against 26 s (level-wise, C4.5 and pruning kernels)
SOONER_LIMIT = 30.0
# seconds numpy's level-by-level prediction takes per (row x level of the tree)
DESCEND_SECONDS = 2.5e-7


WIDE_SETS = ("cart", "cart-side", "regression", "levelwise", "prune")  # the sets whose kernels read nominal codes
SHORT_SETS = ("cart", "cart-side")  # the sets whose kernels read value ranks in 2 bytes on large tables
# CART classification holds value ranks in 2 bytes on tables of more rows than this (``cart/engine.short_ranks``)
SHORT_RANKS_ROWS = 65_536


def index_glob(cache: str, file: str, function: str) -> str:
    """The pattern of numba's index file of ``function`` in ``file`` under the cache directory ``cache``."""
    source = HERE / file
    sub = subdirectory_of(source.parent)
    version = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return os.path.join(cache, sub, f"{glob.escape(source.stem)}.{function}-*.{version}.nbi")


def calls(table, when: str) -> bool:
    """Whether a run on ``table`` calls a kernel marked ``when`` (always, numeric, nominal)."""
    if when == "always" or table is None:
        return True
    nominal = [a.is_nominal for a in table.attributes]
    return any(nominal) if when == "nominal" else not all(nominal)


_dirs: dict = {}  # NUMBA_CACHE_DIR -> the cache directory (the sources' key is read once a run)


def _cache() -> str:
    from dtcli.induction.kernels.cache import prepared_dir

    setting = os.environ.get("NUMBA_CACHE_DIR")
    return _dirs[setting] if setting in _dirs else _dirs.setdefault(setting, prepared_dir())


def variant(name: str, table) -> str:
    """The other compilations a table may need of a set: the CART builders, the level-wise engine
    and pessimistic pruning hold nominal codes in bytes, or in 4-byte integers when an attribute
    has more than 127 values (``wide``); CART classification on more than ``SHORT_RANKS_ROWS``
    rows holds value ranks in 2 bytes (``short``; an estimate: ``cart/engine.short_ranks`` also
    needs every numeric attribute to have at most 65,536 distinct values, known once sorted)."""
    if table is None:
        return ""
    wide = name in WIDE_SETS and any(a.is_nominal and len(a.values) > 127 for a in table.attributes)
    short = name in SHORT_SETS and table.n_rows > SHORT_RANKS_ROWS and not all(a.is_nominal for a in table.attributes)
    return "-".join(kind for kind, wanted in (("wide", wide), ("short", short)) if wanted)


def marker(name: str, table) -> str | None:
    """The file that says ``name``'s variant for ``table`` was compiled (numba's index file cannot
    say which signatures it holds), or None for the usual variant."""
    kind = variant(name, table)
    return os.path.join(_cache(), f"dtree-{name}-{kind}.compiled") if kind else None


def remember(sets: list[str], table) -> None:
    """After a run: note the variants of ``sets`` it compiled (``marker``)."""
    for name in sets:
        path = marker(name, table)
        if path and not os.path.exists(path):
            with contextlib.suppress(OSError):
                Path(path).touch()


# the kernels' index files found in the cache (the pattern's): a file numba wrote is not looked for again in
# this process, nor in the copies the resident process forks (a cross-validation asks 40 times, 0.07 s)
_found: set[str] = set()


def in_cache(pattern: str) -> bool:
    """Whether numba's index file matching ``pattern`` (``index_glob``) is in the cache."""
    if pattern in _found:
        return True
    if glob.glob(pattern):
        _found.add(pattern)
        return True
    return False


def uncached(sets: list[str], table) -> list[str]:
    """Those of ``sets`` whose kernels (those a run on ``table`` calls) are not all in the cache."""
    cache = _cache()
    return [
        name
        for name in sets
        if any(calls(table, when) and not in_cache(index_glob(cache, f, fn)) for f, fn, when in KERNEL_SETS[name])
        or (marker(name, table) is not None and not os.path.exists(marker(name, table)))
    ]


def sooner(reference: float, sets: list[str]) -> bool:
    """Whether a run of about ``reference`` seconds without the kernels of ``sets`` (those not
    cached) is the better choice: done before they would compile, and short (``SOONER_LIMIT``)."""
    return bool(sets) and reference < compile_seconds(sets) and reference <= SOONER_LIMIT


def compile_seconds(sets: list[str]) -> float:
    """About how long compiling ``sets`` takes."""
    return sum(COMPILE_SECONDS[name] for name in sets)


def descend_seconds(n_rows: int, depth: int) -> float:
    """About how long numpy's prediction takes for ``n_rows`` rows through ``depth`` levels."""
    return DESCEND_SECONDS * n_rows * max(depth, 1)
