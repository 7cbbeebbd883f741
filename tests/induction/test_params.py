"""The typed options (induction/params.py) refuse values the model file or the engines cannot hold.

nan and inf where a finite number is needed, whole numbers past 2**31 - 1, seeds outside
numpy's RandomState range (0..2**32 - 1, scikit-learn's random_state), a confidence factor so
small that 1 - CF is 1; each a one-line ParameterError naming the option. The boundaries
themselves are accepted.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dtcli.errors import ParameterError
from dtcli.induction import CostComplexity, PruneParams, grow_params
from dtcli.induction.criteria.costs import AttributeCosts
from dtcli.induction.params import check_cost_complexity, check_grow, check_pessimistic, check_reduced_error

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("min_gain", NAN, "--min-gain: expected a finite number, got nan"),
        ("min_gain", INF, "--min-gain: expected a finite number, got inf"),
        ("min_gain", -INF, "--min-gain must be 0 or more"),
        ("min_split", NAN, "--min-split: expected a finite number, got nan"),
        ("min_leaf", INF, "--min-leaf: expected a finite number, got inf"),
        ("purity", NAN, "--purity must be a fraction in (0, 1], e.g. 0.9"),
        ("chi2_alpha", NAN, "--chi2-alpha must be a significance level between 0 and 1, e.g. 0.05"),
        ("max_depth", 10**30, "--max-depth must be at most 2147483647 (2**31 - 1); leave it out for no limit"),
        ("max_leaves", 2**31, "--max-leaves must be at most 2147483647"),
        ("max_bins", 2**63, "--max-bins must be at most 2147483647"),
        ("seed", -1, "--seed must be between 0 and 4294967295"),
        ("seed", 2**70, "--seed must be between 0 and 4294967295"),
    ],
)
def test_growth_options_refused(option, value, message):
    params = grow_params("cart", **{option: value})
    with pytest.raises(ParameterError) as raised:
        check_grow(params)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


@pytest.mark.parametrize(
    "options",
    [
        {"min_gain": 1e308, "min_split": 1e308, "min_leaf": 5e-324},
        {"max_depth": 2**31 - 1, "max_leaves": 2**31 - 1, "max_bins": 2**31 - 1},
        {"seed": 0},
        {"seed": 2**32 - 1},
    ],
)
def test_growth_options_at_their_bounds_accepted(options):
    check_grow(grow_params("cart", **options))


def test_pruning_options():
    for cf in (NAN, INF, 0.0, 5e-324, 1e-17):
        with pytest.raises(ParameterError, match="--cf must be"):
            check_pessimistic(PruneParams(cf=cf), regression=False)
    check_pessimistic(PruneParams(cf=1e-16), regression=False)
    assert 1 - 1e-16 < 1 and not 1 - 1e-17 < 1  # the boundary: J48's normal quantile at 1 - CF
    with pytest.raises(ParameterError, match="--holdout"):
        check_reduced_error(PruneParams(holdout=NAN), regression=False)
    with pytest.raises(ParameterError, match="--seed"):
        check_reduced_error(PruneParams(seed=-1), regression=False)


@pytest.mark.parametrize(
    "ccp, message",
    [
        (CostComplexity(alpha=NAN), "--ccp-alpha: expected a finite number, got nan"),
        (CostComplexity(alpha=INF), "--ccp-alpha: expected a finite number, got inf"),
        (CostComplexity(alpha=-1.0), "--ccp-alpha must be 0 or more"),
        (CostComplexity(folds=2, seed=2**32), "--seed must be between 0 and 4294967295"),
    ],
)
def test_cost_complexity_options_refused(ccp, message):
    with pytest.raises(ParameterError) as raised:
        check_cost_complexity(ccp, rows=10)
    assert str(raised.value).startswith(message)


def test_costs_must_be_finite_and_not_too_small():
    for cost in (INF, NAN, -INF):
        with pytest.raises(ParameterError, match="must be a finite number"):
            AttributeCosts({"x": cost}, "nunez")
    with pytest.raises(ParameterError, match="too small"):
        AttributeCosts({"x": 5e-324}, "ratio")
    costs = AttributeCosts({"x": 1e-300}, "tan-schlimmer")
    gain = math.log2(2**40)  # far more bits than any tree's gain
    assert np.isfinite(costs.score(gain, costs.cost("x")))
    AttributeCosts({"x": 0.0}, "nunez")  # Nunez adds 1 to the cost


def test_binned_cart_breaks_ties_by_column_unless_told():
    """scikit-learn's tie order is CART's default, but not with --max-bins: binned growth has no
    scikit-learn tree to equal, and column ties let the Dask engine grow the same model file."""
    assert grow_params("cart").ties == "sklearn"
    assert grow_params("cart", max_bins=64).ties == "column"
    assert grow_params("cart", max_bins=64, ties="sklearn").ties == "sklearn"
    assert grow_params("cart", ties="column").ties == "column"


def test_the_option_names_are_the_cores():
    """``names.py`` lists what --help offers: one preset per algorithm name, and what ``params`` checks."""
    from dtcli.induction import ALGORITHMS
    from dtcli.induction.names import ALGORITHM_NAMES, THRESHOLDS, TIES, ZERO_GAIN

    assert tuple(ALGORITHMS) == ALGORITHM_NAMES
    for name in ALGORITHM_NAMES:
        assert ALGORITHMS[name].name == name
    for thresholds in THRESHOLDS:
        check_grow(grow_params("c45", thresholds=thresholds))
    for ties in TIES:
        check_grow(grow_params("cart", ties=ties))
    check_grow(grow_params("id3", zero_gain=ZERO_GAIN[1]))
    for option, value in (("thresholds", "mean"), ("ties", "random"), ("zero_gain", "stop")):
        with pytest.raises(ParameterError):
            check_grow(grow_params("id3" if option == "zero_gain" else "cart", **{option: value}))


def test_the_criterion_and_policy_names_are_the_cores():
    """--criterion offers exactly the scores ``CRITERIA`` has, sorted; --missing exactly the policies."""
    from dtcli.induction.criteria.impurity import CRITERIA
    from dtcli.induction.names import CRITERION_NAMES, MISSING_POLICIES
    from dtcli.induction.search.missing import FILL, NODE_FILL, POLICIES

    assert tuple(sorted(CRITERIA)) == CRITERION_NAMES
    assert POLICIES == MISSING_POLICIES
    assert set(FILL) | set(NODE_FILL) < set(MISSING_POLICIES)


def test_the_package_names_its_api_lazily():
    """``dtcli.induction``'s public names reach their modules' objects; an unknown one is an AttributeError."""
    import dtcli.induction as induction
    from dtcli.induction import algorithms, backend, params, prune

    assert induction.train is algorithms.train and induction.GrowParams is params.GrowParams
    assert induction.ENGINES is backend.ENGINES and induction.PRUNERS is prune.PRUNERS
    assert set(induction.__all__) <= set(dir(induction))
    with pytest.raises(AttributeError):
        induction.no_such_name  # noqa: B018
