"""The commands' training options as keyword arguments: checked, then made into the core's ``Learner``.

``learner(algorithm, options, table)`` takes the options ``dtree train`` takes, spelt as
its long options with ``_`` for ``-`` (``min_leaf``, ``criterion``, ``missing``,
``no_prune``, ``ccp_alpha``, ``seed``, ...), and builds the same ``GrowParams``,
``PruneParams`` and ``CostComplexity`` the command builds, so that a tree fitted here
is the tree the command grows. Reading options (``target``, ``ignore``, ``nominal``,
``format_in``, ``max_bytes``, ``max_rows``, ``sep``, ``decimal``, ``strict``) are
``DATA_OPTIONS``. A wrong name, type or value is a ``ParameterError``.
"""

from __future__ import annotations

import numbers

from dtcli.errors import ParameterError

GROWTH = ("criterion", "thresholds", "ties", "max_bins")
STOPPING = ("max_depth", "min_split", "min_leaf", "max_leaves", "chi2_alpha", "min_gain", "purity", "zero_gain")
PRUNING = ("prune", "holdout", "no_prune", "cf", "error_bound", "no_raise")
COST_COMPLEXITY = ("ccp_alpha", "cv_folds", "one_se", "seed")
OTHERS = ("missing", "task", "engine", "costs", "cost_measure", "nunez_w")
DATA_OPTIONS = ("target", "ignore", "nominal", "format_in", "max_bytes", "max_rows", "sep", "decimal", "strict",
                "weights", "class_weight")  # fmt: skip
TRAINING_OPTIONS = GROWTH + STOPPING + PRUNING + COST_COMPLEXITY + OTHERS
INTEGERS = {"max_depth", "max_leaves", "max_bins", "cv_folds", "seed", "max_bytes", "max_rows"}
FLOATS = {"min_split", "min_leaf", "chi2_alpha", "min_gain", "purity", "holdout", "cf", "ccp_alpha", "nunez_w"}
FLAGS = {"no_prune", "no_raise", "one_se", "strict"}
ALIASES = {"c4.5": "c45", "j48": "c45"}


def algorithm_name(algorithm) -> str:
    """``algorithm`` as the presets name it (any case; C4.5 and J48 are c45); ParameterError otherwise."""
    from dtcli.induction.algorithms import ALGORITHMS

    name = str(algorithm).strip().lower()
    name = ALIASES.get(name, name)
    if name not in ALGORITHMS:
        raise ParameterError(f"unknown algorithm {algorithm!r}; choose from {', '.join(sorted(ALGORITHMS))}")
    return name


def checked(options: dict, allowed=TRAINING_OPTIONS + DATA_OPTIONS) -> dict:
    """``options`` with their types checked (an int where a whole number goes, a number where a
    number goes, True/False for a flag); ParameterError for an unknown name or a wrong type."""
    for name, value in options.items():
        if name not in allowed:
            raise ParameterError(f"unknown option {name!r}; choose from {', '.join(sorted(allowed))}")
        if value is None:
            continue
        option = "--" + name.replace("_", "-")
        if name in INTEGERS and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
            raise ParameterError(f"{option} must be a whole number, got {value!r}")
        if name in FLOATS and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
            raise ParameterError(f"{option} must be a number, got {value!r}")
        if name in FLAGS and not isinstance(value, bool):
            raise ParameterError(f"{option} is a flag: give True or False, got {value!r}")
        if name == "task" and value not in ("auto", "classification", "regression"):
            raise ParameterError(f"{option} {value!r}: choose from auto, classification, regression")
    return {name: _typed(name, value) for name, value in options.items()}


def class_weight_of(class_weight):
    """``class_weight`` as the core takes it: None, ``"balanced"``, or {class as text: weight};
    ParameterError for anything else."""
    if class_weight is None or (isinstance(class_weight, str) and class_weight == "balanced"):
        return class_weight
    if not isinstance(class_weight, dict):
        raise ParameterError(f"class_weight must be 'balanced' or a dict {{class: weight}}, got {class_weight!r}")
    try:
        return {str(k): float(v) for k, v in class_weight.items()}
    except (TypeError, ValueError):
        raise ParameterError(f"class_weight: every weight must be a number, got {class_weight!r}") from None


def _typed(name: str, value):
    """A whole number as int and a number as float (click's types: the model file records ``5.0``, not ``5``)."""
    if value is None:
        return None
    return int(value) if name in INTEGERS else float(value) if name in FLOATS else value


def learner(algorithm: str, options: dict, table):
    """The core's ``Learner`` for ``options`` (checked by ``checked``), as ``dtree train`` builds it for ``table``
    (whose attributes a ``costs`` file is read for)."""
    from dtcli.induction.algorithms import PRUNING as METHODS
    from dtcli.induction.algorithms import grow_params
    from dtcli.induction.backend import ENGINES
    from dtcli.induction.fit import Learner
    from dtcli.induction.params import CostComplexity, PruneParams

    get = options.get
    seed = 0 if get("seed") is None else get("seed")
    engine = get("engine") or "auto"
    if engine not in ENGINES:
        raise ParameterError(f"engine {engine!r}: choose from {', '.join(ENGINES)}")
    if get("prune") is not None and get("prune") not in METHODS:
        raise ParameterError(f"prune {get('prune')!r}: choose from {', '.join(METHODS)}")
    stopping = {name: get(name) for name in STOPPING}
    growth = {name: get(name) for name in GROWTH}
    costs = _costs(options, table)
    params = grow_params(algorithm, **growth, missing=get("missing"), costs=costs, seed=seed, **stopping)
    prune = PruneParams(
        method="none" if get("no_prune") else get("prune"),
        cf=0.25 if get("cf") is None else get("cf"),
        raising=not get("no_raise"),
        error_bound=get("error_bound") or "j48",
        holdout=1 / 3 if get("holdout") is None else get("holdout"),
        seed=seed,
    )
    ccp = CostComplexity(get("ccp_alpha"), get("cv_folds"), bool(get("one_se")), seed)
    return Learner(params, prune, ccp, engine)


def _costs(options: dict, table):
    """The AttributeCosts of the ``costs`` file (None without one), as --costs reads it."""
    path = options.get("costs")
    if path is None:
        return None
    from dtcli.induction.criteria.costs import AttributeCosts
    from dtcli.io.costs import read_costs

    measure = options.get("cost_measure") or "ratio"
    nunez_w = 1.0 if options.get("nunez_w") is None else options["nunez_w"]
    return AttributeCosts(read_costs(str(path), [a.name for a in table.attributes]), measure, nunez_w)
