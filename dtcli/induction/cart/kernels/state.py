"""The compiled CART builders' state as named structures (numba namedtuples), each built once a tree.

The glue (``cart/engine.py``) builds what it knows before the builder runs: ``Sorted`` (the rows
and each numeric attribute's sorted list), ``Columns`` (the attributes), ``Stopping`` (the
stopping rules), ``Scoring`` (the classification criterion and its tables), ``Order`` (the
attribute visiting order) and ``Room`` (the arrays' sizes). The builders add ``Arena`` (the rows
and lists a node owns segments of, and scratch buffers of the same layout), ``Tree`` (the nodes
made), ``Frontier`` (the nodes waiting), ``Trace`` (the chi-square tests) and ``Build`` (what
every step of a split reads). ``Node`` is one node waiting or expanded.
"""

from __future__ import annotations

from collections import namedtuple


def _named(name: str, fields: str, doc: str):
    """A namedtuple class (numba passes them to compiled code as structures) with its docstring."""
    made = namedtuple(name, fields)
    made.__doc__ = doc
    return made


Sorted = _named(
    "Sorted",
    "nominal lists ranks lengths y w",
    "The rows: nominal codes by attribute (-1: missing), each numeric attribute's rows sorted by"
    " value and their value ranks (4 bytes, or 2: ``engine.short_ranks``), each list's rows with a"
    " value; class codes or targets; weights.",
)
Columns = _named(
    "Columns",
    "original is_nominal slot n_values distinct offsets far",
    "The attributes: numeric columns as given; each"
    " attribute's row in the nominal or numeric arrays, its value count; every numeric attribute's"
    " distinct values as compared (single precision when exact), by slot from ``offsets[slot]`` and"
    " then by rank, and for each rank the first of the attribute's ranks far enough above it"
    " (``scan.values_of``).",
)
Stopping = _named(
    "Stopping",
    "min_leaf max_depth min_split purity min_gain chi_alpha max_leaves",
    "The stopping rules (max_depth -1, chi_alpha 0 and max_leaves 0: none).",
)
Scoring = _named(
    "Scoring",
    "n_classes criterion limit exact logs steps lgammas",
    "A classification criterion: its kernel code (criteria/constants.py), the most values searched"
    " exhaustively, scikit-learn's proxy and arithmetic or not, the tables of logarithms and of their"
    " steps (scan.py), and lgammas[df] = math.lgamma(df / 2).",
)
Order = _named(
    "Order",
    "exact state features constant",
    "The attribute visiting order: scikit-learn's (exact) from its generator's state, or by column.",
)
Room = _named(
    "Room",
    "fractional rows nodes",
    "--missing fractional with missing values, and the entries and nodes the arrays hold (fraction.py).",
)
Arena = _named(
    "Arena",
    "rows codes targets weights lists ranks list_targets list_weights",
    "The rows with their nominal codes, targets and weights; each numeric list with its value ranks,"
    " targets and weights. The scratch buffers have the same fields, one row each.",
)
Tree = _named("Tree", "attr thr score member first_child", "Per node: attribute (-1: leaf), test, score, first child.")
Frontier = _named(
    "Frontier",
    "stack keys orders slots counts",
    "The nodes waiting (frontier.py): a Node of arrays, the heap's arrays, and the stack's top, the"
    " heap's size and the pushes so far.",
)
Node = _named(
    "Node",
    "id rs re depth n_const ls le",
    "A node: its id, row start and end, depth, constant attributes known, list starts and ends.",
)
Trace = _named(
    "Trace",
    "node depth cases attr df statistic p_value kept count",
    "The chi-square tests in the order made, and their count.",
)
Build = _named(
    "Build",
    "arena scratch columns tree side tops room unit best_first stopping chosen hist",
    "What every step of a split reads: each row's branch (side), the used part of the rows' and each"
    " list's arrays (tops, fraction.py), every weight 1 (unit: list weights not kept), --max-leaves"
    " given (best_first), a nominal split's values on the chosen side, and a nominal attribute's"
    " counts by value and class (hist).",
)
Store = _named(
    "Store",
    "kind tree found n_left middle ties counts",
    "Nodes decided ahead of their turn (speculate.py), by reference: how each was decided, its test"
    " and first child (a Tree), the attributes it found constant (a bit each), at a split the rows"
    " going left and where each list's right part starts, the tied splits (Ties), and its class"
    " counts (as the per-node loop counts a child right after its parent's split).",
)
Ties = _named(
    "Ties",
    "first count attr thr score member swapped",
    "The splits tied at a node that split its rows alike (speculate.py): by node, where its entries"
    " start and how many; by entry, the test, and whether its left branch is the first entry's right.",
)
