"""``dtree warm-up``: compile every kernel into this machine's cache, for Docker images and CI caches.

An install from the sources runs it in the build (``induction/kernels/prebuild.py``). Otherwise the
compiled engines' kernels compile on first use and are kept in the cache directory
(``~/.cache/dtree/numba/<key>``, or under ``$XDG_CACHE_HOME`` or ``$NUMBA_CACHE_DIR``). This
command grows small trees with every compiled engine, as a training run does (the same table
layout, so the same kernels), compares each with the per-node reference's tree (a self-test), and
says what it compiled and how long that took. Run it once when building an image, or cache the
directory in CI.
"""

from __future__ import annotations

import contextlib
import time

import click

from dtcli.cli.guard import Command

# (what it warms, the CSV's target column, train's options): every compiled kernel a run can call
JOBS = (  # the longest first: two at a time (``--jobs``), the compiles overlap
    ("CART classification", "label", {"algorithm": "cart"}),
    ("CART regression", "value", {"algorithm": "cart"}),
    # on one thread: best first (with more than one core, depth-first CART runs on several)
    ("CART classification, best first", "label", {"algorithm": "cart", "max_leaves": 50}),
    ("C4.5 with pessimistic pruning", "label", {"algorithm": "c45"}),
    ("ID3 with numeric thresholds", "label", {"algorithm": "id3", "thresholds": "midpoint", "missing": "fractional"}),
    ("C4.5 with --max-bins", "label", {"algorithm": "c45", "max_bins": 8, "prune": "none"}),
    ("CART classification, a nominal attribute of more than 127 values", "label", {"algorithm": "cart", "wide": 1}),
    ("CART regression, a nominal attribute of more than 127 values", "value", {"algorithm": "cart", "wide": 1}),
    ("CART best first, a nominal attribute of 128+ values", "label", {"algorithm": "cart", "max_leaves": 9, "wide": 1}),
    ("C4.5, a nominal attribute of more than 127 values", "label", {"algorithm": "c45", "wide": 1}),
    # 4-byte value ranks (``levelwise/data.rank_type``): the row number as a numeric attribute, shallow
    ("C4.5, a numeric attribute of more than 65,536 values", "label", {"algorithm": "c45", "long": 1, "max_depth": 3}),
    # 2-byte value ranks (``cart/engine.short_ranks``): the same table without the row number, shallow
    ("CART classification, more than 65,536 rows", "label", {"algorithm": "cart", "short": 1, "max_depth": 3}),
    ("CART best first, more than 65,536 rows", "label", {"algorithm": "cart", "short": 1, "max_leaves": 8}),
)
LONG_ROWS = 65_600  # the rows of the ``long`` and ``short`` jobs' table: more than 2-byte ranks number
VARIANT_KEYS = ("wide", "long", "short")  # a job with one of these compiles another variant of a set


def is_variant(job: tuple) -> bool:
    """Whether ``job`` compiles a variant (``compiling.variant``) of a set another job compiles."""
    return any(job[2].get(key) for key in VARIANT_KEYS)


def sample_csv(n: int = 400, seed: int = 0) -> str:
    """A small table with nominal and numeric attributes, missing values of both kinds, a class
    column ``label``, a numeric column ``value`` and a column ``id`` of as many values as rows (a
    nominal attribute too wide for bytes, with ``--nominal id``): every kernel runs on it."""
    import numpy as np

    rng = np.random.default_rng(seed)
    lines = ["c0,c1,x0,x1,x2,label,value,id"]
    for row in range(n):
        c0, c1 = rng.integers(0, 4), rng.integers(0, 3)
        x0, x1, x2 = np.round(rng.normal(50, 15), 1), np.round(rng.normal(0, 1), 2), rng.integers(0, 20)
        label = int(c0 == 1) + int(x0 > 50) + int(x1 > 0.5) if rng.random() > 0.1 else int(rng.integers(0, 3))
        cells = [f"v{c0}", f"w{c1}", f"{x0}", f"{x1}", f"{x2}", f"k{label % 3}", f"{x0 * 0.5 + x1:.3f}", f"{row}"]
        for j in (0, 2):
            cells[j] = "?" if rng.random() < 0.05 else cells[j]
        lines.append(",".join(cells))
    return "\n".join(lines) + "\n"


def warm(job: tuple, path: str, cached_only: bool = False) -> tuple[float, list[str], list[str], bool] | None:
    """Grow ``job``'s tree on the CSV at ``path`` with the compiled engines and with the reference:
    (seconds the compiled run took, the kernel sets it compiled, those still not all cached after it,
    whether the two trees are the same). With ``cached_only``, only when every kernel it calls is
    cached (else nothing is grown, and the sets not cached are the third), without the reference: to
    load the kernels, not to compile them; None when numba cannot be used here."""
    from dtcli.cli.common import load_training_table
    from dtcli.induction import PruneParams, backend, grow_params, train
    from dtcli.induction.algorithms import ALGORITHMS
    from dtcli.induction.compiling import uncached
    from dtcli.render.tree import text_tree

    title, target, options = job
    options = dict(options)
    algorithm, prune, wide = options.pop("algorithm"), options.pop("prune", None), options.pop("wide", False)
    long, short = options.pop("long", False), options.pop("short", False)
    task = "auto" if algorithm == "cart" else "classification"
    other = "value" if target == "label" else "label"
    if long:  # ``id`` numeric, one value a row
        path = path.replace("sample.csv", "long.csv")
        table = load_training_table(path, target, (other, "c1", "x1", "x2"), (), None, task)
    elif short:  # more rows than 2 bytes number, each numeric attribute's values fewer
        table = load_training_table(path.replace("sample.csv", "long.csv"), target, (other, "id"), (), None, task)
    else:
        table = load_training_table(path, target, (other,) + (() if wide else ("id",)), ("id",), None, task)
    params, pruning = grow_params(algorithm, **options), PruneParams(method=prune)
    choice = backend.choose(table, params, "compiled")
    pessimistic = (prune or ALGORITHMS[algorithm].prune) == "pessimistic"
    missing = uncached(backend.kernel_sets(table, params, choice) + (["prune"] if pessimistic else []), table)
    if cached_only and (missing or choice == backend.REFERENCE):
        return None if choice == backend.REFERENCE else (0.0, [], missing, False)
    started = time.perf_counter()
    with handing_over(choice == backend.CART and "cart-side" in backend.kernel_sets(table, params, choice)):
        compiled, _ = train(table, params, pruning, engine="compiled")
    seconds = time.perf_counter() - started
    if cached_only:
        return seconds, [], [], True
    reference, _ = train(table, params, pruning, engine="reference")
    left = uncached(missing, table) if backend.available() else []
    made = [name for name in missing if name not in left] if backend.available() else []
    return seconds, made, left, text_tree(compiled) == text_tree(reference)


@contextlib.contextmanager
def handing_over(wanted: bool):
    """With ``wanted``, CART's threads hand nodes to each other (``cart/parallel.py``: ``carve``) on the
    small table too: its jobs never end a slice of ``SLICE_ROWS`` rows, so the kernel was never called,
    hence never cached, and every later run took ``cart-side`` for not cached. Slices of a few rows (as
    the tests cut them) call it; the tree is the same however the work is cut."""
    if not wanted:
        yield
        return
    from dtcli.induction.cart import parallel

    kept = parallel.SLICE_ROWS, parallel.CARVE_ROWS
    parallel.SLICE_ROWS, parallel.CARVE_ROWS = 40, 8
    try:
        yield
    finally:
        parallel.SLICE_ROWS, parallel.CARVE_ROWS = kept


def job_line(title: str, seconds: float, made: list[str], left: list[str]) -> str:
    """What a warm-up job says: the sets it compiled, or that they were cached, and a set some of
    whose kernels the small table never called (a larger run compiles them: they are not cached)."""
    if made:
        line = f"{title}: compiled {', '.join(made)} in {seconds:.1f} s"
    elif left:
        line = f"{title}: ran in {seconds:.1f} s"
    else:
        line = f"{title}: already compiled, ran in {seconds:.1f} s"
    if left:
        line += f"; not all of {', '.join(left)} was called, so not all of it is cached"
    return line


@click.command("warm-up", cls=Command)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    metavar="N",
    help="Compile in N processes at once (default: 2, or 1 on a machine with one processor; each may "
    "take 600 MB while it compiles).",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing (the exit status says whether it worked).")
def command(jobs, quiet):
    """Compile every kernel of the compiled engines into this machine's cache.

    Installing dtree from its sources (pip install . or pip install -e .)
    compiles them already, and the first run copies them into the cache. Where
    they were not (DTREE_PREBUILT_KERNELS=0 at install, a wheel built on
    another machine, another numba since), the compiled engines (on all but
    small tables) compile their kernels the first time they run, which takes a
    minute or two; later runs load them from the cache in a fraction of a
    second. Run this once in a Dockerfile or a CI job (and keep the cache
    directory, ~/.cache/dtree/numba, or NUMBA_CACHE_DIR) so that no run waits
    for it. It grows a small tree with each engine, checks it against the
    per-node reference (a warning if they differ), and prints what it compiled
    and how long that took.

    Example: RUN dtree warm-up (in a Dockerfile)
    """
    import os

    from dtcli.errors import ParameterError
    from dtcli.induction import backend
    from dtcli.render.console import info

    if not backend.available():
        raise ParameterError("numba cannot be used here (is it installed?); dtree runs without compiled kernels")
    warm_up(JOBS, jobs or min(2, os.cpu_count() or 1), (lambda text: None) if quiet else info)


def warm_up(jobs: tuple, workers: int, say) -> None:
    """Run ``jobs`` (some of ``JOBS``) in ``workers`` processes, then the kernels no training calls;
    ``say(text)`` each job's line."""
    import multiprocessing
    import os
    import tempfile
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from dtcli.induction.kernels.cache import chosen_dir
    from dtcli.render.console import warn

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="dtree-warm-up-") as folder:
        path = os.path.join(folder, "sample.csv")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(sample_csv())
        if any(job[2].get("long") or job[2].get("short") for job in jobs):
            with open(os.path.join(folder, "long.csv"), "w", encoding="utf-8") as handle:
                handle.write(sample_csv(LONG_ROWS, seed=1))
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            running = {pool.submit(warm, job, path): job[0] for job in jobs}
            for title, ready in extra_warm_ups():  # (here, while the workers compile)
                job_started = time.perf_counter()
                ready()
                say(f"{title}: ready in {time.perf_counter() - job_started:.1f} s")
            for done in as_completed(running):
                seconds, made, left, same = done.result()
                say(job_line(running[done], seconds, made, left))
                if not same:
                    warn(f"{running[done]}: the compiled engine grew another tree than the reference; please report")
    say(f"kernels cached in {chosen_dir()} ({time.perf_counter() - started:.1f} s in all)")


def extra_warm_ups() -> list:
    """Kernels no training run calls, as (title, their ``warm_up()``): the prediction kernel's,
    when this version has one (the hook for more)."""
    found = []
    try:
        from dtcli.induction.predict.compiled import kernels as prediction
    except ImportError:
        return found
    module = prediction()
    if module is not None and hasattr(module, "warm_up"):
        found.append(("Prediction", module.warm_up))
    return found
