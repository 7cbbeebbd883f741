"""CART's splits scored for many nodes at once from sparse cells (``distributed/cart_scores.py``) are,
node by node, the reference search's (``search/cart.cart_choose``) on the node's own rows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.distributed.cart import Rules
from dtcli.induction.distributed.cart_scores import shard_choices
from dtcli.induction.distributed.cells import cells_of
from dtcli.induction.distributed.shards import layout_of
from dtcli.induction.search.cart import cart_choose
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table


def _case(seed: int, n_classes: int, n_values: int, n_nodes: int, missing: float, tight: bool):
    """A shard's records: a numeric attribute on bins (two tops within 1e-7 with ``tight``: no cut
    between them), a nominal one of ``n_values`` values and one of 4, cells missing with ``missing``."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(n_nodes, 40 * n_nodes))
    node = np.sort(rng.integers(0, n_nodes, n))
    tops = np.sort(rng.choice(np.arange(50) * 0.5, 9, replace=False))
    if tight:
        tops[4] = tops[3] + 5e-8
    numeric = rng.integers(0, len(tops), n)
    nominal = rng.integers(0, n_values, n)
    few = rng.integers(0, 4, n)
    skew = (node % 3 == 0) & (rng.random(n) < 0.8)  # purer nodes: ties and stops
    y = np.where(skew, 0, rng.integers(0, n_classes, n))
    y = np.where(node % 3 == 1, (numeric >= 4).astype(np.int64), y)  # their best cut: between bins 3 and 4
    codes = [np.where(rng.random(n) < missing, -1, c) for c in (numeric, nominal, few)]
    attributes = (
        Attribute("x", NUMERIC),
        Attribute("c", NOMINAL, tuple(f"v{j}" for j in range(n_values))),
        Attribute("f", NOMINAL, ("a", "b", "c", "d")),
    )
    classes = Attribute("class", NOMINAL, tuple(f"k{j}" for j in range(n_classes)))
    return node, codes, y, tops, Schema(attributes, classes)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_classes=st.sampled_from([2, 3, 4]),
    n_values=st.sampled_from([3, 10, 11, 14]),
    n_nodes=st.integers(1, 12),
    missing=st.sampled_from([0.0, 0.1, 0.4]),
    criterion=st.sampled_from(["gini", "entropy", "cart"]),
    min_leaf=st.sampled_from([1.0, 3.0]),
    tight=st.booleans(),
)
def test_every_nodes_choice_is_the_reference_searchs(
    seed, n_classes, n_values, n_nodes, missing, criterion, min_leaf, tight
):
    node, codes, y, tops, schema = _case(seed, n_classes, n_values, n_nodes, missing, tight)
    widths = (len(tops) + 1, n_values + 1, 5)
    bins = {0: (None, None, tops)}
    layout = layout_of(schema.attributes, bins, n_classes)
    assert layout.width == widths
    w = np.ones(len(node))
    cells = [cells_of(node, c, w, y, width, n_classes) for c, width in zip(codes, widths)]
    counts = np.zeros((n_nodes, n_classes))
    np.add.at(counts, (node, y), 1.0)
    found = shard_choices(cells, counts, layout, Rules(schema.attributes, criterion, min_leaf))
    for k in range(n_nodes):
        at = node == k
        columns = [np.where(codes[0][at] >= 0, tops[np.maximum(codes[0][at], 0)], np.nan)]
        columns += [c[at].astype(np.int32) for c in codes[1:]]
        table = Table(schema, columns, y[at].astype(np.int32))
        expected = cart_choose(table, criterion, min_leaf) if at.any() else None
        if expected is None:
            assert found[k] is None
            continue
        i, choice, sizes = found[k]
        assert choice.test.attribute == expected.test.attribute
        if choice.test.kind == "numeric":  # (the reference's midpoint, moved down to a bin's top as snap moves it)
            at_top = int(np.searchsorted(tops, expected.test.threshold, side="right")) - 1
            assert choice.test.threshold == tops[at_top]
        else:
            assert choice.test == expected.test
        assert (choice.score, choice.gain) == (expected.score, expected.gain)  # to the last bit
        branch = expected.test.route(table.columns[i])
        assert np.array_equal(sizes, np.bincount(branch[branch >= 0], minlength=2).astype(float))


@pytest.mark.parametrize("n_classes", [2, 3])
def test_more_than_ten_values_are_searched_as_the_reference_does(n_classes):
    """Eleven and more values present: the ordering by class share (two classes) or the greedy search."""
    test_every_nodes_choice_is_the_reference_searchs.hypothesis.inner_test(
        seed=3, n_classes=n_classes, n_values=14, n_nodes=6, missing=0.0, criterion="gini", min_leaf=1.0, tight=False
    )
