"""The named structures the compiled pessimistic pruning passes around (numba namedtuples).

``Flat``: the tree being pruned, arrays by node slot (attr -1: leaf; the
children of a node are ``nb`` consecutive slots from ``cstart``; ``src``:
whose test the node carries after raising). ``Cases``: the training data
(nominal / numeric columns by slot, each row's class; ``scale`` > 0: fractional
weights rounded to multiples of 1 / scale, ``--max-bins``). ``Estimate``: the
error bound (``cf``, ``z``, C4.5 R8's ``coeff`` when ``r8``) and whether
subtrees are raised. ``Record``: what the pruning writes: each split node's
class weights by branch, at the slot of the child each branch leads to (``branch_bags``: one row a
slot, not a row for every branch a node could have), each node's class weights (``dcounts``),
the decisions (``steps_i``, ``steps_f``), the path entries (``entries_i``),
the two buffers' fill (``counters``) and each pruned node's estimated errors
(``estimate``: E(tree), or E(leaf) for a leaf).
"""

from __future__ import annotations

from collections import namedtuple

Flat = namedtuple("Flat", "attr thr nb cstart src")
Cases = namedtuple("Cases", "is_nominal slot nominal numeric y n_classes scale")
Estimate = namedtuple("Estimate", "cf z r8 coeff raising")
Record = namedtuple("Record", "branch_bags dcounts steps_i steps_f entries_i counters estimate")
