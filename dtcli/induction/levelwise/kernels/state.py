"""The named structures the level-wise engine's kernels take (numba namedtuples).

``Records``: a level's records (row, class, weight, node), grouped by node.
``SortedList``: a numeric attribute's records with a known value, grouped by
node and sorted by value within a node (value ranks, in 2 bytes where they fit:
``data.rank_type``; where each node's block starts and the end, 4 bytes; record
id, 4 bytes: the record's class and weight are read from the level's
``Records``, not held once more in every list). ``Frontier``: the level's
nodes (which may split, their weights) and the rule's constants (classes,
``min_leaf``). ``Scan``: the per-class buffers of C4.5's cut scan.
``Blocks``: the labelled rows' columns by kind (``data.Columns``).
"""

from __future__ import annotations

from collections import namedtuple

Records = namedtuple("Records", "row y w node")
SortedList = namedtuple("SortedList", "values starts rec")
Frontier = namedtuple("Frontier", "active totals n_classes min_leaf")
Scan = namedtuple("Scan", "known left xl xr best_left branches")
Blocks = namedtuple("Blocks", "is_nominal slot nominal numeric")
