"""The learning core: numpy/numba only; it never prints, exits or opens files by name.

Public API (importing this package loads neither numba nor pandas nor an engine, and none of
the names below until one is asked for: a module of the core, such as ``criteria.impurity``
for ``dtree gain``, is imported without the presets, the typed options and the trees):

- ``train(table, grow, prune, engine="auto", progress=None, record=True)``: a tree and warnings;
- ``regrow(tree, table, engine="auto")``: a new root grown with a model's recorded parameters;
- ``ALGORITHMS``: the presets (id3, c45, cart); ``grow_params(algorithm, **options)`` builds a
  ``GrowParams`` from one and rejects an unknown option;
- ``GrowParams``, ``PruneParams``, ``CostComplexity``: the typed options;
- ``ENGINES``: what ``engine`` may ask for (auto, reference, compiled; ``backend`` chooses);
- ``PRUNERS``: the pruning passes by name.
"""

import importlib

_HOMES = {
    "ALGORITHMS": "algorithms",
    "grow_params": "algorithms",
    "regrow": "algorithms",
    "train": "algorithms",
    "ENGINES": "backend",
    "CostComplexity": "params",
    "GrowParams": "params",
    "PruneParams": "params",
    "PRUNERS": "prune",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str):
    """A public name of the core, imported from its module when first asked for (PEP 562)."""
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
