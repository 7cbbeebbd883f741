"""What a growth will cost each way: measured models of the reference's and the compiled engines' seconds.

``backend`` weighs them to choose who grows a tree; a choice never changes the tree, only how soon
it is grown. The figures are CPU seconds on this project's 2-core machine (median of runs in turn):

- the per-node reference (``grow/grower.py``) pays Python's overhead at every node and attribute,
  so its time follows the table's cells (rows times attributes, a nominal one counting less than a
  numeric one) and grows with the classes (more classes, more nodes): ``reference_seconds``;
- a compiled engine whose kernels are cached pays a fixed start (importing numba and loading the
  machine code, ``ENGINE_START_SECONDS``; less, ``ENGINE_LOAD_SECONDS``, once ``backend.prepare``
  has loaded numba for the folds of a cross-validation) and then little per cell (``engine_seconds``);
- kernels not cached compile first (``compiling.compile_seconds``).

This module imports nothing: a small table's run decides here, before ``compiling`` (pathlib, glob)
or numba is imported.
"""

from __future__ import annotations

# seconds the per-node reference takes per cell (row x attribute), by algorithm and task, on tables
# of SMALL_ROWS rows and of LARGE_ROWS or more (between them, by the rows: its per-node overhead weighs
# less on larger nodes), and to prune (pessimistic, the grown tree). Measured in CPU seconds on tables
# of make_data.py (10 nominal and 10 numeric attributes, 3 classes) and on scikit-learn's digits,
# with the machine shared (its CPU seconds then count about twice an idle machine's, as do the
# compile times and the start they are weighed against): CART 0.72 s at 2,000 rows, 2.7 s at 8,000,
# 23.7 s at 42,000 (per cell, a nominal one counted NOMINAL_SHARE: 4e-5 at 42,000 rows).
# C4.5 scores a node's numeric attributes side by side (``search/batched.py``), which took its time
# to 0.48x (2,000 rows), 0.41x (8,000), 0.45x (42,000), 0.27x (digits) and 0.83x (soybean, all
# nominal) of the figures above: idle machine, growth alone, 0.31, 0.98, 5.27, 0.63 and 0.16 s, and
# 1.2 s for a compiled engine's whole growth there, start included (ENGINE_START_SECONDS counts 1.5:
# the C4.5 figures are these times 1.25, in the units of that start).
# CART now scores a node's attributes side by side too (``search/cart.py``: ``node_splits``); its
# figures, fitted likewise (1.25 times an idle machine's growth), on make_data's 2,000, 8,000 and 42,000
# rows (0.65, 2.47, 15.3 s), scikit-learn's digits (1.08 s), Weka's soybean (0.34), credit-g (0.66) and
# segment-challenge (0.15), and 50,000 rows of 50 nominal and 50 numeric attributes and 30 classes
# (221 s): within 0.5-2x of each, and on the right side of a compiled engine's start on digits.
# Regression trees likewise (``search/regression.py``: ``numeric_splits``, ``nominal_splits``): 20,000
# make_data rows with a numeric target took 74.6 s and now 34.8 s, its figures 0.6 of what they were
# (a regression tree's size follows its target more than its cells: digits' 0-9 target, 0.56 s)
SMALL_ROWS, LARGE_ROWS = 2_000, 40_000
PER_CELL_SMALL = {"c45": 8.5e-6, "id3": 3.5e-5, "cart": 9.5e-6, "regression": 1.5e-4, "prune": 3e-6}
PER_CELL_LARGE = {"c45": 7.8e-6, "id3": 4e-5, "cart": 1.3e-5, "regression": 1.2e-4, "prune": 2e-6}
CLASSES_MEASURED = 3  # the classes of the tables measured; more cost more, about their square root
# (10 classes 1.5x, 30 classes 2.6x at 2,000 rows of 10 attributes; 4.8x with 60 numeric attributes) ...
CLASS_POWER = {"c45": 0.25, "cart": 0.25}  # ... but for C4.5 and CART now about their fourth root: 6
# classes 1.38x on make_data's 8,000 rows, while digits (10 classes) and soybean (19) cost no more a
# cell than its 3 classes
NOMINAL_SHARE = {"c45": 1.0, "cart": 2.5}  # a nominal attribute's cell costs the reference this share of a numeric
# one's, 0.4 unless given here (2,000 rows of 20 nominal attributes: 0.52 s, of 20 numeric ones 0.84 s
# with a larger tree; Weka's soybean, 683 rows of 35 nominal attributes and 19 classes: 0.6 s); C4.5's
# batched numeric cuts made its numeric cells as cheap as its nominal ones, and CART's made them cheaper
# than its nominal ones, whose subsets are searched (digits, all numeric: 1.08 s; soybean: 0.34 s)
# importing numba (0.5 s of CPU more than numpy alone) and loading the cached kernels a growth, its
# pruning and its prediction call: C4.5 on soybean took 2.2 s of CPU with the engine, 1.2 s by the reference
ENGINE_START_SECONDS = 1.5
ENGINE_PER_CELL = 1e-6  # a compiled engine's seconds per cell once started (sorting, scans, routing)
# each growth's share of loading its kernels' machine code into a process where numba is started (a
# fold's forked worker loads them anew: 10-fold cross-validation of Weka's breast-cancer, 286 rows,
# took 3.4 s of CPU with the engines against 1.9 s by the reference, the reference's estimate 0.09 s)
ENGINE_LOAD_SECONDS = 0.25
# a growth's start where the engine's kernels were loaded before this process began: a copy forked by
# the resident process (dtcli/resident) that grew small trees with them. Growth and pruning there, best
# of 3, engine against reference: C4.5 weather 1.4 ms against 1.9, contact-lenses 2.9 against 2.1, iris
# 5.9 against 5.2, labor 4.0 against 13.7, synth-nominal-6 4.3 against 28.4, glass 16.8 against 75.9,
# credit-g 22 against 242; CART weather 2.3 against 5.4, breast-cancer 7.2 against 139. The reference's
# estimate is 2 to 4 times under its time on such small tables, so 1 ms sends all but the smallest
# (contact-lenses, weather) to the engine: 10-fold C4.5 on synth-nominal-3, 0.17 s at 3 ms, 0.11-0.14 s at 1 ms
ENGINE_AHEAD_SECONDS = 0.001
# the kinds (``reference_seconds``: algorithm, regression, prune) whose kernels were so loaded
AHEAD: set[str] = set()
# not empty once ``backend.prepare`` has loaded the engines in this process: the growths it was for
# (the folds of a cross-validation, grown here one after another when ``folds_in_one_process``)
STARTED: list[int] = []


def reference_seconds(kind: str, table) -> float:
    """About how long the per-node reference takes on ``table`` for ``kind`` (an algorithm,
    ``regression`` or ``prune``)."""
    rows = table.n_rows
    share = min(max((rows - SMALL_ROWS) / (LARGE_ROWS - SMALL_ROWS), 0.0), 1.0)
    per_cell = PER_CELL_SMALL[kind] + share * (PER_CELL_LARGE[kind] - PER_CELL_SMALL[kind])
    power = CLASS_POWER.get(kind, 0.5)
    classes = 1.0 if table.is_regression else max(len(table.classes) / CLASSES_MEASURED, 1.0) ** power
    nominal = NOMINAL_SHARE.get(kind, 0.4)
    cells = rows * max(sum(nominal if a.is_nominal else 1.0 for a in table.attributes), 1.0)
    return per_cell * cells * classes


def engine_seconds(table, started: bool | None = None, kind: str | None = None) -> float:
    """About how long a compiled engine with cached kernels takes on ``table``, its start included
    unless the engines are ``started`` (None: whether ``backend.prepare`` loaded them here), or were
    loaded ahead for ``kind`` (``AHEAD``)."""
    if kind in AHEAD:
        start = ENGINE_AHEAD_SECONDS
    else:
        start = ENGINE_LOAD_SECONDS if (bool(STARTED) if started is None else started) else ENGINE_START_SECONDS
    return start + ENGINE_PER_CELL * table.n_rows * max(len(table.attributes), 1)


def engine_pays(kind: str, table, started: bool | None = None, runs: int = 1) -> bool:
    """Whether a compiled engine with cached kernels would be done before the reference, over
    ``runs`` growths on tables like ``table`` (the folds of a cross-validation) in one process."""
    engine = engine_seconds(table, started, kind) + (runs - 1) * engine_seconds(table, True, kind)
    return runs * reference_seconds(kind, table) > engine


def prepared_runs() -> int:
    """The growths ``backend.prepare`` loaded the engines for in this process (1: none)."""
    return STARTED[-1] if STARTED else 1


# the reference's pessimistic pruning of a tree already grown costs about this much per split (its
# decision, and the rerouting of its cases when a subtree is raised) and per case the splits route (the
# cases of every node that splits, summed): fitted on 12 trees from Weka's vote (18 splits, 0.005 s)
# to 50,000 rows of 100 attributes and 30 classes (3,369 splits, 318,139 cases, 1.35 s), each within
# 0.5-1.5x, idle machine, then times 1.25 as C4.5's growth figures above. The table alone (PER_CELL_*
# ``prune``) guesses before the tree is grown, and over-guessed that last tree 16 times.
PRUNE_PER_SPLIT = 3.9e-4
PRUNE_PER_CASE = 1.1e-6
PRUNE_COMPILED_SHARE = 0.1  # the compiled pruning's share of that, its kernels loaded (0.10 s against 0.99 s there)


def pruning_seconds(splits: int, cases: float) -> float:
    """About how long the reference prunes a grown tree of ``splits`` splits routing ``cases`` cases."""
    return PRUNE_PER_SPLIT * splits + PRUNE_PER_CASE * cases


def pruning_reference(table, grown: tuple[int, float] | None = None) -> float:
    """About how long the reference prunes a tree grown on ``table``: by ``grown`` (its splits and the
    cases they route, ``pruning_seconds``) when the tree is known, else by the table's cells."""
    return pruning_seconds(*grown) if grown is not None else reference_seconds("prune", table)


def pruning_pays(table, started: bool | None = None, grown: tuple[int, float] | None = None) -> bool:
    """Whether compiled pessimistic pruning with cached kernels would be done before the reference's,
    over the prunings of the growths prepared here (``prepared_runs``): its kernels load once in the
    process (``ENGINE_LOAD_SECONDS``), then each pruning costs little. Weka's soybean, 10 folds in one
    process: the reference's pruning took 0.08 s a fold (estimated 0.07), the compiled one's 0.25 s
    once and then a few ms. ``grown``: the tree's size, when it is grown (``pruning_reference``)."""
    reference = pruning_reference(table, grown)
    loaded = bool(STARTED) if started is None else started
    runs = prepared_runs() if loaded else 1
    if "prune" in AHEAD:
        start = ENGINE_AHEAD_SECONDS
    else:
        start = ENGINE_LOAD_SECONDS if loaded else ENGINE_START_SECONDS
    return runs * reference > start + runs * PRUNE_COMPILED_SHARE * reference


# Forking the workers of a cross-validation costs their start (importing multiprocessing, a fork and a
# pipe each, the results sent back) and saves at most half the folds' time on 2 cores, nothing on a busy
# machine: a cross-validation whose folds the reference grows in less than this (as estimated) runs in one
# process. Measured 10-fold, C4.5, whole runs, one process against two, on the shared machine (load 11-13):
# iris (0.2 s estimated) 0.67 s of CPU against 0.77 (wall 0.90x), Weka's vote (0.97 s) 1.72 against 1.76
# (wall 0.92x), diabetes (2.2 s) 2.14 against 2.41 (wall 0.92x; an idle machine's second core halves it)
FORK_MIN_SECONDS = 1.0
# ... but a core nobody uses (``workers.spare_core``) takes half the folds for the cost of a fork: on
# an idle 2-core machine, 10-fold C4.5 in two processes against one, wall time, whole runs (median of
# 3): Weka's labor (0.22 s estimated) 0.56 s against 0.65, breast-cancer (0.36 s) 0.70 against 0.94,
# vote (0.97 s) 0.70 against 0.85, diabetes 1.26 against 2.14; with the engines loaded first, soybean
# 1.93 against 2.06 and credit-g 2.51 against 3.19; iris (0.21 s) 0.49 against 0.51, and a table as
# small as weather's the same either way. So with a spare core only the smallest stay in one process.
FORK_SPARE_SECONDS = 0.15


def folds_in_one_process(kind: str, table, runs: int, spare: bool = False) -> bool:
    """Whether ``runs`` growths on tables like ``table`` (the folds of a cross-validation) are done
    sooner one after the other here than in forked worker processes (``FORK_MIN_SECONDS``, or
    ``FORK_SPARE_SECONDS`` when the machine has a ``spare`` core): by the reference's time, or, when
    ``backend.prepare`` loaded the engines for them, by the engines' own (each worker would load
    their kernels again). Weka's soybean, 10 folds by the engines on a busy machine: 3.3-3.6 s of
    CPU in one process against 4.2-4.7 s in two (the reference would take 0.3 s a fold)."""
    least = FORK_SPARE_SECONDS if spare else FORK_MIN_SECONDS
    if STARTED:
        return runs * ENGINE_PER_CELL * table.n_rows * max(len(table.attributes), 1) < least
    return runs * reference_seconds(kind, table) < least
