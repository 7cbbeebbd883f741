"""The learning core: numpy/numba only; it never prints, exits or opens files by name.

Public API (importing this package loads neither numba nor pandas nor an engine):

- ``train(table, grow, prune, engine="auto", progress=None, record=True)``: a tree and warnings;
- ``regrow(tree, table, engine="auto")``: a new root grown with a model's recorded parameters;
- ``ALGORITHMS``: the presets (id3, c45, cart); ``grow_params(algorithm, **options)`` builds a
  ``GrowParams`` from one and rejects an unknown option;
- ``GrowParams``, ``PruneParams``, ``CostComplexity``: the typed options;
- ``ENGINES``: what ``engine`` may ask for (auto, reference, compiled; ``backend`` chooses);
- ``PRUNERS``: the pruning passes by name.
"""

from dtcli.induction.algorithms import ALGORITHMS, grow_params, regrow, train
from dtcli.induction.backend import ENGINES
from dtcli.induction.params import CostComplexity, GrowParams, PruneParams
from dtcli.induction.prune import PRUNERS

__all__ = [
    "ALGORITHMS",
    "ENGINES",
    "PRUNERS",
    "CostComplexity",
    "GrowParams",
    "PruneParams",
    "grow_params",
    "regrow",
    "train",
]
