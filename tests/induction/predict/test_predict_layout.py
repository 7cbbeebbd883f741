"""The layout ``predict.descend`` walks, built for all nodes at once, holds what each node gives one at a time.

The expected arrays are made node by node, as the definitions say: a leaf's distribution is
its class shares (an empty leaf: its parent's, an empty root: its label; a regression leaf: its
mean), a split's branches share a missing value in proportion to the children's training
weights (all alike when there is none; a filled tree: the heaviest only), bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest
from trees import fit, generated

from dtcli.induction.predict.apply import layout
from dtcli.induction.predict.weka_order import EMPTY
from dtcli.induction.search.missing import FILL
from helpers import SAMPLES, WEKA, load


def expected(tree, flat):
    """(dist, [(child slots, shares) a split]) of ``flat``'s slots, node by node."""
    nodes = flat.nodes
    parents = {id(child): node for node in nodes for child in node.children}
    fractional = tree.parameters.get("missing", "fractional") not in FILL
    dist, fans = [], []
    for slot, node in enumerate(nodes):
        up = parents.get(id(node))
        if node.children:
            dist.append(np.zeros(flat.dist.shape[1]))
            sizes = np.array([float(child.counts.sum()) for child in node.children])
            if not fractional:
                share = np.zeros(len(sizes))
                share[int(np.argmax(sizes))] = 1.0
            elif sizes.sum() > 0:
                share = sizes / sizes.sum()
            else:
                share = np.full(len(sizes), 1.0 / len(sizes))
            positive = np.flatnonzero(share > 0)
            fans.append((flat.cstart[slot] + positive, share[positive]))
        elif node.value is not None:
            dist.append(np.array([node.value]))
        elif node.counts.sum() > EMPTY:
            dist.append(node.counts / node.counts.sum())
        elif up is not None and up.counts.sum() > EMPTY:
            dist.append(up.counts / up.counts.sum())
        else:
            dist.append(np.eye(len(node.counts))[node.label])
    return np.array(dist), fans


def bits(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize(
    "path,algorithm,missing",
    [
        (WEKA / "data" / "soybean.arff", "c45", "fractional"),
        (WEKA / "data" / "credit-g.arff", "c45", "majority"),
        (WEKA / "data" / "vote.arff", "cart", None),
        (WEKA / "data" / "breast-cancer.arff", "id3", "fractional"),
        (SAMPLES / "weather.csv", "id3", None),
    ],
)
def test_layout_equals_the_node_by_node_arrays(path, algorithm, missing):
    table = load(path)
    tree, _ = fit(table, algorithm, **({"missing": missing} if missing else {}))
    flat = layout(tree, table)
    dist, fans = expected(tree, flat)
    assert np.array_equal(bits(flat.dist), bits(dist))
    splits = np.flatnonzero(~flat.leaf)
    assert len(splits) == len(fans)
    for slot, (children, shares) in zip(splits.tolist(), fans):
        first, k = flat.fan_start[slot], flat.fanout[slot]
        assert np.array_equal(flat.fan_child[first : first + k], children)
        assert np.array_equal(bits(flat.fan_share[first : first + k]), bits(shares))
    assert np.array_equal(bits(flat.totals), bits([float(node.counts.sum()) for node in flat.nodes]))


def test_regression_layout():
    table = load(WEKA / "data" / "cpu.arff", task="regression")
    tree, _ = fit(table, "cart")
    flat = layout(tree, table)
    dist, _ = expected(tree, flat)
    assert np.array_equal(bits(flat.dist), bits(dist))


def test_many_classes_and_empty_leaves():
    table = generated(300, 4)
    tree, _ = fit(table, "c45", missing="fractional", prune="none")
    flat = layout(tree, table)
    assert np.array_equal(bits(flat.dist), bits(expected(tree, flat)[0]))
