"""Typed options of training: growth, pruning and cost complexity, each checked in one place.

``GrowParams`` governs growth and is recorded in the model file (``as_dict``);
``PruneParams`` says how a grown tree is pruned; ``CostComplexity`` how the
cost-complexity alpha is given or chosen (``algorithms.grow_params`` builds a
GrowParams from an algorithm's preset and the user's overrides). Each
``check_*`` raises a one-line ``ParameterError`` naming the option.

Numbers must be finite (``nan`` and ``inf`` are refused: the model file
records them, and JSON has neither), whole numbers at most ``LARGEST_COUNT``
(the compiled engines hold them in 64 bits), and a seed within
``0..SEED_MAX``, the range scikit-learn's ``random_state`` (numpy's
``RandomState``) accepts.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import NamedTuple

from dtcli.errors import ParameterError
from dtcli.induction.criteria.bounds import BOUNDS
from dtcli.induction.criteria.costs import AttributeCosts
from dtcli.induction.criteria.impurity import CRITERIA
from dtcli.induction.names import THRESHOLDS, TIES, ZERO_GAIN
from dtcli.induction.search.missing import POLICIES, ROOT_FILL

SEED_MAX = 2**32 - 1
LARGEST_COUNT = 2**31 - 1  # --max-depth, --max-leaves, --max-bins: more is the same as no limit


@dataclass(frozen=True)
class GrowParams:
    """What governs growth; every field is recorded in the model file."""

    algorithm: str = "id3"
    criterion: str = "gain"
    max_depth: int | None = None
    min_split: float = 2.0
    min_leaf: float | None = None
    min_gain: float = 0.0
    purity: float = 1.0
    max_leaves: int | None = None
    thresholds: str | None = None
    missing: str = "reject"
    collapse: bool = False
    costs: AttributeCosts | None = None
    ties: str = "column"
    seed: int = 0
    chi2_alpha: float | None = None
    max_bins: int | None = None
    zero_gain: str = "leaf"

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def grid(self) -> bool:
        """Whether fractional case weights go on ``constants.on_grid`` (``fraction_grid``)."""
        return fraction_grid(self.algorithm, self.max_bins)


def fraction_grid(algorithm: str, max_bins) -> bool:
    """C4.5 and ID3 with ``--max-bins`` put fractional case weights on the grid of ``constants.on_grid``,
    so that sums of weights are exact in any order (the Dask engine, which bins, adds partitions
    in any order); CART (its own compiled builder, sklearn's arithmetic) and unbinned growth do not."""
    return bool(max_bins) and algorithm != "cart"


@dataclass(frozen=True)
class PruneParams:
    """How a grown tree is pruned: ``method`` (None: the algorithm's), pessimistic pruning's
    ``cf``, ``raising`` and ``error_bound``, reduced-error pruning's ``holdout`` share and ``seed``."""

    method: str | None = None
    cf: float = 0.25
    raising: bool = True
    error_bound: str = "j48"
    holdout: float = 1 / 3
    seed: int = 0


class CostComplexity(NamedTuple):
    """Cost-complexity pruning at ``alpha``, or at the alpha ``folds``-fold cross-validation picks."""

    alpha: float | None = None
    folds: int | None = None
    one_se: bool = False
    seed: int = 0

    @property
    def wanted(self) -> bool:
        return self.alpha is not None or bool(self.folds)


DEFAULT_PRUNING = PruneParams()  # the algorithm's own pruning, with the default options
GROW_OPTIONS = tuple(f.name for f in fields(GrowParams) if f.name != "algorithm")


def params_from_dict(parameters: dict) -> GrowParams:
    """GrowParams from a model's recorded parameters (unknown keys ignored)."""
    known = {f: parameters[f] for f in GrowParams.__dataclass_fields__ if f in parameters}
    if isinstance(known.get("costs"), dict):
        known["costs"] = AttributeCosts(**known["costs"])
    return GrowParams(**known)


def check_grow(params: GrowParams) -> None:
    """The growth options, checked (in the order of the options' help)."""
    if params.criterion not in CRITERIA:
        raise ParameterError(f"unknown criterion {params.criterion!r}; choose from {', '.join(sorted(CRITERIA))}")
    if params.criterion == "cart" and params.algorithm != "cart":
        raise ParameterError("--criterion cart is defined for binary splits: use it with --algorithm cart")
    _check_stopping(params)
    if params.ties not in TIES:
        raise ParameterError("--ties must be sklearn or column")
    if params.ties == "sklearn" and params.algorithm != "cart":
        raise ParameterError("--ties sklearn applies to --algorithm cart only (ID3 and C4.5 follow Weka)")
    if params.max_bins is not None and params.max_bins < 2:
        raise ParameterError("--max-bins must be 2 or more (e.g. 256)")
    check_count("--max-bins", params.max_bins)
    check_seed(params.seed)
    if params.missing not in POLICIES:
        raise ParameterError(f"--missing must be one of {', '.join(POLICIES)}")
    if params.algorithm == "cart" and (params.missing == "class-majority" or params.missing in ROOT_FILL):
        raise ParameterError(
            f"--missing {params.missing} fills values in for id3 and c45; cart sends a case with a "
            "missing value down the heavier branch (--missing majority, its default) or down both "
            "(--missing fractional)"
        )
    _check_zero_gain(params)
    if params.algorithm == "cart" and params.costs is not None:
        raise ParameterError(
            "--costs weighs information gain (Mitchell 3.7.5) for id3 and c45; cart chooses its "
            "splits by impurity decrease: leave --costs out or use --algorithm c45"
        )


def _check_zero_gain(params: GrowParams) -> None:
    if params.zero_gain not in ZERO_GAIN:
        raise ParameterError(f"--zero-gain must be one of {', '.join(ZERO_GAIN)}")
    if params.zero_gain == "split" and params.algorithm != "id3":
        raise ParameterError(
            f"--zero-gain split applies to --algorithm id3 only ({params.algorithm} has its own rule "
            "for splits that gain nothing): leave it out or use --algorithm id3"
        )
    if params.zero_gain == "split" and params.min_gain > 0:
        raise ParameterError(
            "--zero-gain split makes every split, whatever it gains, so --min-gain would be ignored: give one of them"
        )


def check_finite(option: str, value) -> None:
    """``value`` (None: not given) must be a finite number."""
    if value is not None and not math.isfinite(value):
        raise ParameterError(f"{option}: expected a finite number, got {float(value)!r}")


def check_count(option: str, value) -> None:
    """A whole-number option (None: not given) must be at most ``LARGEST_COUNT``."""
    if value is not None and value > LARGEST_COUNT:
        raise ParameterError(f"{option} must be at most {LARGEST_COUNT} (2**31 - 1); leave it out for no limit")


def check_seed(seed: int) -> None:
    if not 0 <= seed <= SEED_MAX:
        raise ParameterError(f"--seed must be between 0 and {SEED_MAX} (2**32 - 1, as scikit-learn's random_state)")


def _check_stopping(params: GrowParams) -> None:
    if params.max_depth is not None and params.max_depth < 0:
        raise ParameterError("--max-depth must be 0 or more")
    check_count("--max-depth", params.max_depth)
    if params.min_split < 0:
        raise ParameterError("--min-split must be 0 or more")
    check_finite("--min-split", params.min_split)
    if params.min_gain < 0:
        raise ParameterError("--min-gain must be 0 or more")
    check_finite("--min-gain", params.min_gain)
    if not 0 < params.purity <= 1:
        raise ParameterError("--purity must be a fraction in (0, 1], e.g. 0.9")
    if params.min_leaf is not None and params.min_leaf < 0:
        raise ParameterError("--min-leaf must be 0 or more")
    check_finite("--min-leaf", params.min_leaf)
    if params.max_leaves is not None and params.max_leaves < 1:
        raise ParameterError("--max-leaves must be 1 or more")
    check_count("--max-leaves", params.max_leaves)
    if params.thresholds not in (None, *THRESHOLDS):
        raise ParameterError("--thresholds must be data or midpoint")
    if params.chi2_alpha is not None and not 0 < params.chi2_alpha < 1:
        raise ParameterError("--chi2-alpha must be a significance level between 0 and 1, e.g. 0.05")


def check_pessimistic(prune: PruneParams, regression: bool) -> None:
    """Options of error-based pruning, checked (``regression``: the tree predicts numbers)."""
    if not 0 < prune.cf <= 0.5:
        raise ParameterError("--cf must be in (0, 0.5], e.g. 0.25 (smaller prunes more)")
    if not 1 - prune.cf < 1:  # J48's bound takes the normal quantile at 1 - CF, which must be below 1
        raise ParameterError("--cf must be at least 1e-16 (J48 takes the normal quantile at 1 - CF), e.g. 0.25")
    if prune.error_bound not in BOUNDS:
        raise ParameterError(f"--error-bound must be one of {', '.join(BOUNDS)}")
    if regression:
        raise ParameterError("pessimistic pruning needs classes; prune regression trees by cost complexity")


def check_reduced_error(prune: PruneParams, regression: bool) -> None:
    """Options of reduced-error pruning in training, checked."""
    if not 0 < prune.holdout < 1:
        raise ParameterError("--holdout must be a fraction between 0 and 1, e.g. 0.33")
    check_seed(prune.seed)
    if regression:
        raise ParameterError("reduced-error pruning needs classes; prune regression trees by cost complexity")


def check_cost_complexity(ccp: CostComplexity, rows: int | None) -> None:
    """Options of cost-complexity pruning, checked (``rows``: labelled rows for cross-validation)."""
    if ccp.alpha is not None and ccp.folds:
        raise ParameterError("give --ccp-alpha or --cv-folds, not both")
    if ccp.alpha is not None and ccp.alpha < 0:
        raise ParameterError("--ccp-alpha must be 0 or more")
    check_finite("--ccp-alpha", ccp.alpha)
    check_seed(ccp.seed)
    if ccp.folds is not None and not 2 <= ccp.folds <= (rows or 0):
        raise ParameterError("--cv-folds must be at least 2 and at most the number of rows")
