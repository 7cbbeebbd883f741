"""Train's learning options, one decorator and one typed ``Training``: train and evaluate --cv share them.

``training_options`` adds every option that says how a tree is learned (growth,
task, missing values, attribute costs, stopping, pruning, cost complexity and the
seed) and hands the command one ``Training`` under ``training``. Its ``fit(table)``
does what ``dtree train`` does; ``learner(table)`` is the core's ``Learner`` that
cross-validation fits to every fold.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import click

from dtcli.cli.common import Costs, cost_options, task_option
from dtcli.cli.options import (
    Growth,
    cost_complexity_options,
    growth_options,
    missing_option,
    option_group,
    pessimistic_list,
    pessimistic_params,
    stopping_options,
)
from dtcli.cli.weighting import weighting_options
from dtcli.induction.algorithms import PRUNING
from dtcli.induction.params import CostComplexity, PruneParams
from dtcli.pipeline.load import Weighting


@dataclass(frozen=True)
class Training:
    """How to learn a tree, as the options gave it."""

    growth: Growth
    task: str | None
    missing: str | None
    costs: Costs
    stopping: dict
    pruning: PruneParams
    ccp: CostComplexity
    weighting: Weighting = Weighting()

    @property
    def target_task(self) -> str:
        """How to read the target: --task, else ``auto`` (a numeric target is numeric: CART regresses
        it, ID3 and C4.5 refuse it)."""
        return self.task or "auto"

    def note_target(self, table, quiet: bool) -> None:
        """Say on standard error (unless ``quiet`` or --task was given) that CART regresses a numeric
        target that looks like classes (``model.targets``)."""
        if quiet or self.task not in (None, "auto") or self.growth.algorithm != "cart":
            return
        from dtcli.model.targets import regression_note
        from dtcli.render.console import notice

        note = regression_note(table)
        if note:
            notice(f"Note: {note}")

    @property
    def seed(self) -> int:
        return self.ccp.seed

    def learner(self, table):
        """The core's Learner for ``table`` (whose attributes a --costs file is read for)."""
        from dtcli.induction.fit import Learner

        params = self.growth.params(
            missing=self.missing, costs=self.costs.load(table), seed=self.ccp.seed, **self.stopping
        )
        return Learner(params, replace(self.pruning, seed=self.ccp.seed), self.ccp, self.growth.engine)

    def fit(self, table):
        """(tree, warnings), as ``dtree train`` learns them from ``table`` (``Learner.fit``)."""
        return self.learner(table).fit(table)


def _pruning(prune_method, holdout, no_prune, **pessimistic):
    return pessimistic_params(method="none" if no_prune else prune_method, holdout=holdout, **pessimistic)


pruning_options = option_group(
    "pruning",
    _pruning,
    click.option(
        "--prune",
        "prune_method",
        type=click.Choice(PRUNING),
        help="Pruning after growth (default: pessimistic for c45, as J48; none otherwise). "
        "pessimistic is C4.5's error-based pruning with subtree raising; reduced-error "
        "holds out --holdout of the rows (stratified, --seed) and prunes on them (Mitchell).",
    ),
    click.option(
        "--holdout",
        type=float,
        default=1 / 3,
        show_default="0.33",
        metavar="F",
        help="With --prune reduced-error: the share of rows kept for validation.",
    ),
    click.option("--no-prune", is_flag=True, help="Do not prune (the same as --prune none; J48 -U)."),
    *pessimistic_list(
        "Confidence factor of pessimistic pruning (smaller prunes more).",
        "The upper error bound: Weka J48's (exact normal quantile) or Quinlan's C4.5 R8 table.",
        "Pessimistic pruning without subtree raising (J48 -S).",
    ),
)

GROUPS = (
    growth_options,
    task_option(
        "What to predict. auto (the default): a numeric target (ARFF numeric/real/integer, numbers in "
        "CSV or Parquet) is regressed by cart (the mean at each leaf, squared-error splits) and refused by "
        "id3 and c45 (as Weka's J48); a nominal one is classified. classification: the target's values "
        "are classes, as written (3, not 3.0; 1 and 1.0 are one class). regression: cart only. cart notes "
        "on stderr when a numeric target looks like classes: whole numbers, at most 30 distinct, "
        "at least two rows each on average (-q, or --task other than auto, silences it).",
        auto=True,
    ),
    missing_option,
    cost_options(
        "Attribute costs, CSV lines 'attribute,cost' (others cost 1): splits are chosen by "
        "a cost measure of their gain instead of the criterion (Mitchell 3.7.5)."
    ),
    stopping_options,
    pruning_options,
    cost_complexity_options(
        "Cost-complexity pruning at A: prune every weakest link with g(t) <= A (scikit-learn's ccp_alpha).",
        "Cost-complexity pruning at the alpha K-fold cross-validation on the training rows picks (this "
        "chooses how far to prune; --cv judges the finished tree); the table of alpha, leaves, training "
        "and CV error goes to standard error.",
        "Seed of every random choice: the folds of --cv and --split, the folds of --cv-folds, "
        "reduced-error's holdout and CART's scikit-learn tie order.",
    ),
    weighting_options,
)
KEYS = ("growth", "task", "missing", "costs", "stopping", "pruning", "ccp", "weighting")


def training_options(func):
    """Add train's learning options to a command, whose ``training`` argument receives a Training."""

    def build(*args, **kwargs):
        kwargs["training"] = Training(**{key: kwargs.pop(key) for key in KEYS})
        return func(*args, **kwargs)

    wrapper = functools.wraps(func)(build)
    for group in reversed(GROUPS):
        wrapper = group(wrapper)
    return wrapper
