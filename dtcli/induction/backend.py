"""The one place that chooses who grows a tree: the per-node reference or a compiled engine.

``choose(table, params, engine)`` names the grower: ``LEVELWISE`` (the
level-wise engine, ``levelwise/engine.py``: C4.5 and ID3 classification),
``CART`` (the compiled CART builders, ``cart/engine.py``) or ``REFERENCE``
(``grow/grower.py``, every algorithm and option). The request ``engine`` is
``auto``, ``reference`` or ``compiled`` (an engine whatever the size, when it supports the
parameters); ``dask`` (``dtree train`` only) grows on a Dask cluster from the file
(``algorithms.train_distributed``, ``distributed/``); a traced growth (``narrate``: every node's candidates and decision
recorded) is always the reference's. An engine runs only where numba can be used; ``unavailable``
says when a ``compiled`` request could not be met. Pessimistic pruning runs
compiled by the same rule (``compiled_pruning``).

``auto`` counts what each grower will really cost (``estimates.py``, measured): the reference's
per-node time on this table's rows, attributes and classes against a compiled engine's start
(importing numba, loading its kernels: a second or so) and its own time. A table the reference
grows sooner than that (weather, iris, a grading script's small files) is grown by it before
anything of the engines, or of ``compiling``, is imported: start-up matters to scripts that call
dtree thousands of times. A larger one looks at this machine's kernel cache (``compiling.py``: a
glance at file names, numba not imported): every kernel cached, the engine grows it; some not
cached, the reference grows it, and where a core is spare they compile meanwhile in a forked
process (``beside_engine``, ``workers.Beside``): once they are cached the engine takes over the
growth, and when the reference is done first the process is stopped, what it compiled kept in the
cache for the next run. Without a spare core, the reference grows it when it would finish before
they compiled and within ``compiling.SOONER_LIMIT`` seconds (a longer run compiles first, once per
machine, rather than pay the reference at every run). Either way a first run on a new machine does
not wait minutes for a table the reference grows in seconds. ``compile_seconds`` says how long
the compiling a run is about to start takes (0: none), for the progress display to announce it.
``prepare`` loads the engines once for the folds of a cross-validation, whose growths share their
start. Every choice gives the same tree.

Prediction chooses likewise (``compiled_prediction``): a large enough table (rows times the
tree's depth) walks the tree in the compiled kernel (``predict/kernels/descend.py``), a small one
descends with numpy without importing numba; both give the same numbers to the last bit.
"""

from __future__ import annotations

from dtcli.errors import ParameterError
from dtcli.induction import estimates

ENGINES = ("auto", "reference", "compiled")
REFERENCE, LEVELWISE, CART = "reference", "levelwise", "cart"
DASK = "dask"  # ``dtree train`` only: the Dask engine (``distributed/``), which reads DATA on a cluster


# measured: numpy's descent costs about 0.12 us a row and level, loading numba and the cached
# kernel about 0.4 s; the kernel pays off from about 4 million row-levels (1M rows of a depth-5 tree:
# numpy 0.55 s, compiled 0.07 s + loading)
PREDICT_MIN_WORK = 4_000_000


def check_engine(engine: str) -> None:
    if engine == DASK:
        raise ParameterError("--engine dask: only 'dtree train' runs on a Dask cluster so far; use auto here")
    if engine not in ENGINES:
        raise ParameterError(f"--engine must be one of {', '.join(ENGINES)}")


def kind_of(table, params) -> str:
    """What the reference's cost is measured for (``estimates``): the algorithm, or regression."""
    return "regression" if table.is_regression else params.algorithm


def _wanted(table, engine: str, kind: str, runs: int = 1) -> bool:
    """Whether an engine may grow (prune: ``kind`` prune) on ``table``: asked for, or with ``auto`` one
    whose kernels are cached would be done before the reference (the cache is looked at later)."""
    return engine == "compiled" or (engine == "auto" and estimates.engine_pays(kind, table, runs=runs))


def available() -> bool:
    """Whether the compiled kernels can be used here (this imports numba)."""
    from dtcli.induction.levelwise.engine import kernels

    return kernels() is not None


def choose(table, params, engine: str = "auto", narrate: bool = False) -> str:
    """Which grower grows a tree on ``table`` with ``params`` for the request ``engine``
    (the reference whenever the growth is narrated: it decides node by node, and grows the same tree)."""
    if narrate or not _wanted(table, engine, kind_of(table, params)):
        return REFERENCE  # before the engines' modules are imported: a small table never loads them
    chosen = supporting(table, params)
    if chosen == REFERENCE or (engine == "auto" and _reference_first(table, params, chosen)):
        return REFERENCE
    return chosen if available() else REFERENCE


def supporting(table, params) -> str:
    """The compiled engine that supports growing ``table`` with ``params`` (REFERENCE if none does)."""
    from dtcli.induction.cart.engine import use_cart_engine
    from dtcli.induction.levelwise.engine import use_engine

    return LEVELWISE if use_engine(table, params) else CART if use_cart_engine(table, params) else REFERENCE


def kernel_sets(table, params, choice: str) -> list[str]:
    """The sets of kernels (``compiling.KERNEL_SETS``) the grower ``choice`` calls."""
    if choice == LEVELWISE:
        return ["levelwise", params.algorithm] + (["bins"] if params.max_bins and params.algorithm == "c45" else [])
    if choice == CART:
        if table.is_regression:
            return ["regression"]
        from dtcli.induction.cart.parallel import threads_for

        return ["cart-side" if threads_for(table, params) > 1 else "cart"]
    return []


def _reference_first(table, params, choice: str) -> bool:
    """Whether the reference grows the tree while kernels ``choice`` needs are not cached: when it would
    be done before they compiled, or when they can compile beside it (``beside_engine``)."""
    from dtcli.induction import compiling

    missing = compiling.uncached(kernel_sets(table, params, choice), table)
    if not missing:
        return False
    reference = estimates.reference_seconds(kind_of(table, params), table)
    return compiling.sooner(reference, missing) or beside_engine(table, params, "auto") != REFERENCE


def beside_engine(table, params, engine: str, narrate: bool = False) -> str:
    """The compiled engine whose kernels a process forked beside the reference's growth compiles
    (``grow_watched``), or REFERENCE for none: with ``auto``, on a table that engine would grow sooner
    than the reference once its kernels are cached, when some of them are not and a process may be
    forked beside this one's work (``workers.may_fork_beside``: a spare core, no other thread). The
    first run on a new machine then takes what the sooner of the two takes, the reference's growth or
    the compiling and the engine's growth, instead of waiting for the compiling (on 2 cores, CART's
    kernels take about 2 min); what a run stopped compiled stays in the cache for the next run."""
    if engine != "auto" or narrate or params.max_bins or not _wanted(table, engine, kind_of(table, params)):
        return REFERENCE
    chosen = supporting(table, params)
    if chosen == REFERENCE:
        return REFERENCE
    from dtcli.induction import compiling, workers

    if not compiling.uncached(kernel_sets(table, params, chosen), table) or not workers.may_fork_beside():
        return REFERENCE
    return chosen


def compile_seconds(table, params, choice: str, pruning: bool, engine: str = "auto") -> float:
    """About how long compiling the kernels a run is about to use takes (0: every one is cached):
    those of the grower ``choice`` and, with ``pruning`` (pessimistic), the pruning's."""
    sets = kernel_sets(table, params, choice)
    if pruning and compiled_pruning(table, engine):
        sets.append("prune")
    if not sets:
        return 0.0  # before importing compiling (pathlib, glob): a small table's run compiles nothing
    from dtcli.induction import compiling

    return compiling.compile_seconds(compiling.uncached(sets, table))


def prepare(table, params, engine: str, runs: int) -> None:
    """Before ``runs`` growths on tables like ``table`` (the folds of a cross-validation, each a
    process's or one after another): load the compiled engines here once, when every kernel they
    need is cached and together they would be done before the reference, so that each growth
    counts no start of its own (forked workers inherit them)."""
    if engine != "auto" or runs <= 1 or not _wanted(table, engine, kind_of(table, params), runs):
        return
    if ready_engine(table, params) != REFERENCE:
        estimates.STARTED.append(runs)


def ready_engine(table, params) -> str:
    """The compiled engine that supports ``table`` with ``params`` when every kernel it calls is
    cached and numba can be used (loading it starts no compile), else REFERENCE."""
    choice = supporting(table, params)
    if choice == REFERENCE:
        return REFERENCE
    from dtcli.induction import compiling

    return choice if not compiling.uncached(kernel_sets(table, params, choice), table) and available() else REFERENCE


def unavailable(engine: str) -> str | None:
    """A warning when ``compiled`` was asked for and numba cannot be used (None otherwise)."""
    if engine == "compiled" and not available():
        return "--engine compiled: numba cannot be used here; the reference grower ran instead"
    return None


LOADED: list[str] = []  # the engines a watched growth gave way to in this process (numba is loaded)
# CPU seconds of the reference's growth between looks at the cache while kernels compile beside it
# (each look: a few file names globbed)
BESIDE_LOOK = 0.5


def grow_watched(table, params, choice: str, engine: str = "auto", progress=None, trace=None, narrate=False):
    """(``grow``'s result, the grower that grew it). The estimate ``auto`` chose by counts the table's
    cells, not the tree's nodes: the reference pays Python's overhead at every node, so a deep tree of
    small leaves (``-m 1`` on a column of distinct numbers: a chain of 10,000 levels took it 17 s)
    costs it far more than estimated. So a growth ``auto`` gave to the reference is watched: once it
    has taken as long as a compiled engine would have (``estimates.engine_seconds``), it stops if an
    engine supports the parameters and every kernel that engine needs is cached (no compile is
    started mid-run), and the engine grows the tree again (the same tree: the choice never changes
    it). At worst the run takes about twice what the better choice would have."""
    if choice != REFERENCE or engine != "auto" or narrate or params.max_bins:
        return grow(table, params, choice, progress, trace, narrate), choice
    import time

    from dtcli.induction.grow.grower import Overdue, Watch

    engines: list[str] = []

    def give_up() -> bool:
        other = ready_engine(table, params)
        if other != REFERENCE:
            engines.append(other)
            LOADED.append(other)
        return bool(engines)

    # a process whose engines are loaded already (a fold, a regrowth) gives way sooner
    engine_time = estimates.engine_seconds(table, True if LOADED else None, kind_of(table, params))
    watch = Watch(time.process_time() + engine_time, give_up)
    beside = beside_engine(table, params, engine)
    compiler = None
    if beside != REFERENCE:  # its kernels compile in a forked process, looked for every BESIDE_LOOK s
        from dtcli.induction import workers

        compiler = workers.Beside(lambda: compile_by_growing(table, params, beside))
        watch = Watch(time.process_time() + BESIDE_LOOK, give_up, every=BESIDE_LOOK)
    try:
        return grow(table, params, choice, progress, trace, narrate, watch), choice
    except Overdue:
        pass
    finally:
        if compiler is not None:
            compiler.stop()  # before the engine grows: its growth there would be this one's
    return grow(table, params, engines[0], progress, trace), engines[0]


def compile_by_growing(table, params, choice: str) -> None:
    """What the process beside a reference's growth runs: the engine ``choice``'s growth of the same
    table, which compiles the kernels it calls into the cache (``available`` first: it points numba at
    the cache directory before the engines' modules are imported, and says whether numba can run)."""
    if available():
        grow(table, params, choice)


def grow(table, params, choice: str, progress=None, trace: list | None = None, narrate: bool = False, watch=None):
    """Grow with the grower ``choice``: a FlatTree from the level-wise engine, else the root Node
    (``narrate``: the reference records every node in ``trace``; ``watch``: the reference's
    ``grower.Watch``)."""
    if choice == LEVELWISE:
        from dtcli.induction import compiling
        from dtcli.induction.levelwise.engine import grow_levelwise

        flat = grow_levelwise(table, params, progress, trace)
        compiling.remember(kernel_sets(table, params, LEVELWISE), table)  # (a variant the cache cannot name)
        return flat
    if choice == CART:
        from dtcli.induction import compiling
        from dtcli.induction.cart.engine import grow_cart

        root = grow_cart(table, params, trace, progress).to_nodes()
        compiling.remember(kernel_sets(table, params, CART), table)  # (a variant the cache cannot name)
        return root
    from dtcli.induction.grow.grower import grow as grow_reference

    return grow_reference(table, params, trace, progress, narrate, watch)


def grow_nodes(table, params, engine: str = "auto", progress=None, trace: list | None = None):
    """The root Node of a tree grown on ``table`` by the grower ``engine`` asks for."""
    grown, choice = grow_watched(table, params, choose(table, params, engine), engine, progress, trace)
    return grown.to_nodes() if choice == LEVELWISE else grown


def compiled_pruning(
    table, engine: str = "auto", started: bool | None = None, grown: tuple[int, float] | None = None
) -> bool:
    """Whether pessimistic pruning of a tree on ``table`` runs compiled for the request ``engine``
    (it falls back by itself when numba cannot be used): with ``auto`` when the reference would
    take longer than the engine (``estimates.pruning_pays``: over the folds ``prepare`` loaded the engines
    for, whose prunings load the kernels once), and not when it would be done before the pruning
    kernels compiled; ``started``: numba is loaded already, by an engine's growth). ``grown``: the
    grown tree's size (``grown_size``), which says the reference's time better than the table."""
    if not (engine == "compiled" or (engine == "auto" and estimates.pruning_pays(table, started, grown))):
        return False
    from dtcli.induction import compiling

    missing = compiling.uncached(["prune"], table) if engine == "auto" else []
    return not compiling.sooner(estimates.pruning_reference(table, grown), missing)


def grown_size(root=None, flat=None) -> tuple[int, float]:
    """A grown tree's splits and the cases they route (their training weight, summed), as
    ``estimates.pruning_seconds`` counts them: of the Node tree at ``root`` or of the arrays ``flat``."""
    if flat is not None:
        splits = flat.attr >= 0
        return int(splits.sum()), float(flat.counts[splits].sum())
    count, cases = 0, 0.0
    for node in root.walk():
        if node.children:
            count, cases = count + 1, cases + float(node.counts.sum())
    return count, cases


def pruning_compile_seconds(table) -> float:
    """About how long compiling the pruning's kernels for ``table`` takes (0: they are cached), for a
    tree ``compiled_pruning`` sends to them."""
    from dtcli.induction import compiling

    return compiling.compile_seconds(compiling.uncached(["prune"], table))


def compiled_prediction(n_rows: int, depth: int, engine: str = "auto") -> bool:
    """Whether ``n_rows`` rows go through a tree of ``depth`` levels of splits in the compiled
    kernel: for the request ``compiled`` always (where numba can be used), for ``auto`` when the rows
    times the depth reach ``PREDICT_MIN_WORK`` too, and numpy would not be done sooner than the
    kernel compiled, if it is not cached (``reference``: never)."""
    if engine == "reference" or (engine == "auto" and n_rows * max(depth, 1) < PREDICT_MIN_WORK):
        return False
    from dtcli.induction import compiling

    # not cached: numpy when sooner (predict/apply.py then loads the kernel, or uses numpy where numba cannot run)
    return engine != "auto" or not compiling.sooner(
        compiling.descend_seconds(n_rows, depth), compiling.uncached(["predict"], None)
    )


def prediction_compile_seconds() -> float:
    """About how long compiling the prediction kernel takes (0: it is cached)."""
    from dtcli.induction import compiling

    return compiling.compile_seconds(compiling.uncached(["predict"], None))
