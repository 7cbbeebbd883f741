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

# y: class codes or targets; w: weights; nominal: (nominal attributes, rows) codes; lists/ranks:
# (numeric attributes, rows) rows sorted by value and their value ranks; lengths: each list's
# rows with a value
Sorted = namedtuple("Sorted", "nominal lists ranks lengths y w")
# values: the numeric columns as compared (single precision when exact), original: as given;
# slot: each attribute's row in the nominal or numeric arrays; distinct: every numeric
# attribute's distinct values, indexed by rank; far: the first rank far enough above each rank
Columns = namedtuple("Columns", "values original is_nominal slot n_values distinct far")
Stopping = namedtuple("Stopping", "min_leaf max_depth min_split purity min_gain chi_alpha max_leaves")
# criterion: a kernel code (criteria/constants.py); limit: the most values searched exhaustively;
# exact: scikit-learn's proxy and arithmetic; logs/steps: the tables of logarithms (scan.py);
# lgammas[df]: math.lgamma(df / 2)
Scoring = namedtuple("Scoring", "n_classes criterion limit exact logs steps lgammas")
# exact: scikit-learn's order and arithmetic (else column order); state: its generator's state
Order = namedtuple("Order", "exact state features constant")
# fractional: --missing fractional with missing values; rows/nodes: the entries and nodes the
# arrays hold (fraction.py)
Room = namedtuple("Room", "fractional rows nodes")
# rows with their nominal codes, targets and weights; each numeric list with its value ranks,
# targets and weights (the scratch buffers have the same fields, one row each)
Arena = namedtuple("Arena", "rows codes targets weights lists ranks list_targets list_weights")
Tree = namedtuple("Tree", "attr thr score member first_child")
# the stack's arrays (one entry a node: id, row start and end, depth, known constants, list
# starts and ends), the heap's (keys, orders, slots) and the counts: top, size, pushed
Frontier = namedtuple("Frontier", "stack keys orders slots counts")
Node = namedtuple("Node", "id rs re depth n_const ls le")
# chi-square tests in the order made, and their count
Trace = namedtuple("Trace", "node depth cases attr df statistic p_value kept count")
# side: each row's branch; tops: the used part of the rows' and each list's arrays (fraction.py);
# unit: every weight is 1 (list weights not kept); best_first: --max-leaves given; chosen: a
# nominal split's values on the chosen side; hist: a nominal attribute's counts by value and class
Build = namedtuple("Build", "arena scratch columns tree side tops room unit best_first stopping chosen hist")
