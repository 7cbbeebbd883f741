"""CART on the Dask engine: the binned CART tree, grown level by level on the cluster.

Contract: ``grow_cart_dask(client, parts, schema, params, bins)`` returns the root Node that the
local engines grow with ``--algorithm cart --max-bins N --ties column`` on the same table (the
reference on the binned table, thresholds snapped: ``search/bins.py``), for classification with
``--missing majority`` (CART's default). Every case weighs 1 and a case whose tested value is missing
goes whole down the heavier branch, so every sum is a whole number and exact in any order: the
partitions' cells add up to the very counts one pass over the binned table gives, and each node's
split is chosen from them by the reference's own arithmetic (``cart_scores.py``: the search's
functions on the candidates of all a shard's nodes at once).

Per level, as for C4.5 (``engine.py``): the class weights per frontier node reach the client, which
applies the stopping rules (``grower.stops``, the minimum leaf); the records at the nodes that may
split become sparse cells, summed and scored by shards on the workers (``cart_shard``), and only each
node's chosen split travels back; the records then go one level down.

scikit-learn's tie order (``--ties sklearn``) draws each node's attribute order from one generator in
depth-first order, so a node's split would wait on every node grown before it; the engine breaks ties
by column order instead (``--ties column``, its default for CART; the model records it).
"""

from __future__ import annotations

import time
from typing import NamedTuple

import numpy as np

from dtcli.induction.distributed.cart_scores import shard_choices
from dtcli.induction.distributed.cells import merged
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.engine import shard_cells
from dtcli.induction.distributed.records import Blocks, advance, node_counts, start
from dtcli.induction.distributed.shards import Layout, layout_of, partition_codes
from dtcli.induction.grow.grower import stops
from dtcli.model.tree import Node, SubsetTest, majority


class Rules(NamedTuple):
    """What a shard needs to choose CART's splits: the attributes, the criterion and the minimum leaf."""

    attributes: tuple
    criterion: str
    min_leaf: float


def grow_cart_dask(client, parts: list, schema, params, bins: dict, progress=None) -> Node:
    """Grow the tree level by level (see the module docstring); ``bins`` per numeric slot."""
    attributes, n_classes = tuple(schema.attributes), len(schema.classes)
    layout = layout_of(attributes, bins, n_classes)
    blocks = Blocks(np.array(layout.is_nominal, dtype=bool), np.array(layout.slot, dtype=np.int64))
    shared = client.scatter(layout, broadcast=True, hash=False)
    min_leaf = params.min_leaf or 1.0
    rules = client.scatter(Rules(attributes, params.criterion, min_leaf), broadcast=True, hash=False)
    usable = any(a.is_nominal or params.thresholds for a in attributes)
    n_values = max((len(a.values) for a in attributes if a.is_nominal), default=1)
    n_workers = max(1, len(client.scheduler_info().get("workers", {})))
    recs = client.map(start, parts)
    codes = client.map(partition_codes, parts, layout=shared)
    root = Node(np.zeros(n_classes), 0)
    frontier: list[tuple[Node | None, int]] = [(None, 0)]  # each frontier node's parent and branch
    depth, started = 0, time.perf_counter()
    while frontier:
        n = len(frontier)
        counts = summed(client, client.map(node_counts, parts, recs, n_nodes=n, n_classes=n_classes))
        nodes = [_attach(counts[k], parent, branch) for k, (parent, branch) in enumerate(frontier)]
        root = nodes[0] if depth == 0 else root
        if progress is not None:
            progress(depth, n, int(counts.sum()), time.perf_counter() - started)
        totals = counts.sum(axis=1)
        rows = np.array(
            [k for k in range(n) if not stops(params, counts[k], usable, depth) and totals[k] >= 2 * min_leaf],
            dtype=np.int64,
        )
        chosen = _choose(client, parts, recs, codes, rows, counts, shared, rules, n_workers) if len(rows) else []
        test = _Tests(n, n_values)
        frontier = []
        for k, found in zip(rows, chosen):
            if found is None or not found[1].score >= params.min_gain - 1e-12:
                continue
            i, choice, sizes = found
            node = nodes[k]
            node.test, node.score, node.children = choice.test, choice.score, [None, None]
            test.put(int(k), i, choice.test, sizes, len(frontier))
            frontier += [(node, 0), (node, 1)]
        if not frontier:
            break
        routes = client.scatter(test.arrays(), broadcast=True, hash=False)
        recs = client.map(advance, parts, recs, test=routes, blocks=blocks)
        depth += 1
    return root


def _attach(counts: np.ndarray, parent: Node | None, branch: int) -> Node:
    """The frontier node with ``counts``, made its parent's child (an empty one takes the parent's label)."""
    if counts.sum() > 0:
        node = Node(counts, majority(counts))
    else:
        node = Node(np.zeros(len(counts)), parent.label)
    if parent is not None:
        parent.children[branch] = node
    return node


class _Tests:
    """A level's tests as the records' ``advance`` reads them (attr, thr, cstart, shares, sides)."""

    def __init__(self, n_nodes: int, n_values: int):
        self.attr = np.full(n_nodes, -1, dtype=np.int64)
        self.thr = np.zeros(n_nodes)
        self.cstart = np.zeros(n_nodes, dtype=np.int64)
        self.shares = np.zeros((n_nodes, 2))
        self.width = max(n_values, 1)
        self.inside: list[int] = []  # node x width + value, for each value of an A in V test's V

    def put(self, k: int, i: int, test, sizes: np.ndarray, cstart: int) -> None:
        """Node ``k`` splits by ``test`` on attribute ``i``; its missing cases go down the heavier branch."""
        self.attr[k], self.cstart[k] = i, cstart
        self.shares[k, int(np.argmax(sizes))] = 1.0
        if isinstance(test, SubsetTest):
            self.inside.extend(k * self.width + test.attribute.codes[v] for v in test.values)
        else:
            self.thr[k] = test.threshold

    def arrays(self) -> tuple:
        sides = (np.array(sorted(self.inside), dtype=np.int64), self.width)
        return self.attr, self.thr, self.cstart, self.shares, sides


def _choose(client, parts, recs, codes, rows, counts, layout, rules, n_workers: int) -> list:
    """Each node of ``rows``' chosen split (None: none), scored by shards on the cluster."""
    shards, bounds = shard_cells(client, parts, recs, rows, counts.sum(axis=1), layout, n_workers, codes=codes)
    asked = [
        client.submit(cart_shard, shard, counts[rows[lo:hi]], layout, rules)
        for shard, lo, hi in zip(shards, bounds[:-1], bounds[1:])
    ]
    return [found for part in client.gather(asked) for found in part]


def cart_shard(shard: list[tuple], counts: np.ndarray, layout: Layout, rules: Rules) -> list:
    """Run on a worker: the shard's pieces summed, and each of its nodes' best split as the reference
    chooses it on the binned table, (attribute, Choice, known weight per branch) or None (``cart_scores``)."""
    cells = [merged([piece[i] for piece in shard], layout.n_classes) for i in range(len(layout.is_nominal))]
    return shard_choices(cells, counts, layout, rules)
