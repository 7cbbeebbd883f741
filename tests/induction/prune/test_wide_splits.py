"""Reduced-error pruning through a split of more than 64 leaves, with missing values in the validation rows.

``predict`` gives such a row the split's mixture of leaves at once; the kept
counts must make the choices predicting every candidate makes.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest
from trees import fit

from dtcli.induction.prune.reduced_error import prune as reduced_error
from dtcli.induction.prune.reduced_error.prune import reduced_error_prune
from dtcli.model.format.model import dumps_model
from dtcli.model.table import MISSING, NOMINAL, Attribute, Schema, Table


def table(seed: int, n: int, missing: float, labels: str = "s and w") -> Table:
    rng = np.random.default_rng(seed)
    wide = Attribute("w", NOMINAL, tuple(f"v{i}" for i in range(100)))
    small = Attribute("s", NOMINAL, ("p", "q", "r"))
    w = rng.integers(0, 100, n).astype(np.int32)
    s = rng.integers(0, 3, n).astype(np.int32)
    w_part = (w % 3 == 0) & (rng.random(n) < 0.6) & (labels == "s and w")
    y = ((s == 1) ^ w_part).astype(np.int32)  # the tree splits on s first, then on w
    if labels == "mostly a":
        y = (rng.random(n) < 0.2).astype(np.int32)
    w[rng.random(n) < missing] = MISSING
    schema = Schema((small, wide), Attribute("y", NOMINAL, ("a", "b")))
    return Table(schema, [s, w], y)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("labels", ["s", "mostly a"])
def test_kept_counts_choose_as_predicting_every_candidate(seed, labels):
    tree, _ = fit(table(seed, 1500, 0.0), "id3", prune="none", missing="fractional")
    assert tree.root.test.attribute.name == "s"  # below it, splits on w into 100 leaves: mixed
    assert all(len(c.children) == 100 and all(g.is_leaf for g in c.children) for c in tree.root.children)
    validation = table(seed + 10, 300, 0.3, labels)  # on which pruning the splits on w, or all, pays
    fast, fast_steps = reduced_error_prune(tree, validation)
    work = copy.deepcopy(tree)
    plain_steps = reduced_error._plain_rounds(work, validation)
    assert fast_steps == plain_steps and fast_steps
    assert dumps_model(fast).split('"root"')[1] == dumps_model(work).split('"root"')[1]
