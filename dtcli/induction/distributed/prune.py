"""The Dask engine's pessimistic pruning: the local pruning's own decisions, on counts summed on the cluster.

Contract: ``prune_dask(client, parts, schema, tree, by_class, prune)`` returns what
``pessimistic_prune`` returns for ``tree`` on the same table with ``--max-bins`` (the model file
byte for byte), by running the reference pruning (``prune_cases``: its order of decisions, its every
float) with the cases reaching a node held as a path of tests (``paths.py``; an id of the client's
``Trie``, so a path costs one entry at any depth) instead of rows. A node's class sums are those of
the rows along its path, summed per partition and on the cluster. Cases lacking a tested value go
down each branch as C4.5's fractional cases, their weights on the 2**-24 grid
(``constants.on_grid``), so every sum is exact and the order of the partitions is immaterial. A
branch's share of them is ``_route``'s (``prune/pessimistic/reference.py``): from the class sums of the
parent's cases that know the value, by branch, and of those that lack it, which a pass over the
partitions returns with the paths; the children's paths carry it. Subtree raising sends a node's
cases down its largest branch: the counts of every node of that branch under the new routing are
fetched the same way. Counts are fetched ahead, for every path the pruning may ask next (each
node's, and each node's cases down its largest branch), depth by depth: one pass over the partitions
finds which attributes lack values anywhere; a test on one that does needs its split's sums before
its children's paths are known (one more pass per depth of such tests, every node of that depth in
the same pass); a test on one that does not has its children's paths at once. Raising is asked of a
node once its branches are pruned, so the walk ahead goes down a largest branch only as far as the
grown counts say that branch will remain (``expected_leaves``: pruning without raising, judged on
the grown counts); where the guess is wrong, the pruning's own request fetches what it needs. A walk
skips what an earlier walk found known throughout. The subtrees the workers grew last come already
pruned on their own cases (``finish.py``): the pruning here finds them unchanged, and the count of
the grown tree's leaves comes with them (``original_leaves``).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import gr, sm_or_eq
from dtcli.induction.criteria.impurity import seqsum
from dtcli.induction.distributed.cluster import shipped, summed
from dtcli.induction.distributed.path_sums import Trie, missing_by_attribute, path_counts
from dtcli.induction.prune.pessimistic.reference import (
    estimated_errors,
    max_bag,
    prune_cases,
    pruned_tree,
    shares_of,
)

OWN, BELOW, LARGEST = 0, 1, 2  # a node's own cases (raising asked below it), cases routed below, its largest branch


def condition(position: int, test, branch: int, share: float = 0.0) -> tuple:
    """Branch ``branch`` of ``test`` (on the attribute at schema ``position``) as a path's condition;
    ``share``: of the cases lacking the value (0.0: none of them)."""
    threshold = float(test.threshold) if test.kind == "numeric" else 0.0
    return (position, threshold, branch, share)


class ClusterCases:
    """The cases reaching a node as a path (an id of a ``paths.Trie``), their counts fetched from the cluster."""

    def __init__(self, client, parts, schema, by_class, raising: bool, root, leaves: frozenset = frozenset()):
        self.client, self.parts, self.raising = client, parts, raising
        self.leaves = leaves  # ids of the grown Nodes expected to end as leaves (``expected_leaves``)
        self.n_classes = len(schema.classes)
        self.is_nominal = np.array([a.is_nominal for a in schema.attributes], dtype=bool)
        self.slot = np.zeros(len(self.is_nominal), dtype=np.int64)
        self.slot[self.is_nominal] = np.arange(int(self.is_nominal.sum()))
        self.slot[~self.is_nominal] = np.arange(int((~self.is_nominal).sum()))
        self.trie = Trie()
        self.root = Trie.ROOT  # the path of every case
        self.known = np.zeros((1024, self.n_classes))  # class sums by path id, once fetched (``have``)
        self.have = np.zeros(1024, dtype=bool)
        self.known[self.root], self.have[self.root] = np.asarray(by_class, dtype=np.float64), True
        self.lacking = np.zeros((1024, self.n_classes))  # by path id: its parent's cases lacking its tested value
        self.splits: dict = {}  # (path, attribute, threshold) -> _split's answer, once known
        self.missing = None  # by attribute: whether any labelled row lacks its value (fetched once)
        self.position = {a.name: i for i, a in enumerate(schema.attributes)}
        self.grown, self.top = root, None
        self.walked: set = set()  # the walk's items below which every path was known (``_walk``)
        self.passes = 0

    def counts(self, path: int) -> np.ndarray:
        if not self._has(path):
            self._fetch([path])
        return self.known[path].copy()

    def size(self, path: int) -> float:
        return float(self.counts(path).sum())

    def route(self, test, path: int) -> tuple[np.ndarray, list]:
        split = self._split(test, path)
        if split is None:
            self._fetch(self._queries(test, path))
            split = self._split(test, path)
        return split[0].copy(), split[1]

    def watch(self, top) -> None:
        self.top = top

    def _has(self, path: int) -> bool:
        return path < len(self.have) and bool(self.have[path])

    def _queries(self, test, path: int) -> list:
        """The paths whose sums give ``test``'s split of ``path``'s cases: each branch's known cases."""
        position = self.position[test.attribute.name]
        return [self.trie.child(path, condition(position, test, b)) for b in range(test.n_branches)]

    def _split(self, test, path: int):
        """``_route``'s (bags, the branches' paths) for ``test`` on ``path``'s cases; None if not fetched yet."""
        position = self.position[test.attribute.name]
        key = (path, position, float(test.threshold) if test.kind == "numeric" else 0.0)
        split = self.splits.get(key)
        if split is None:
            split = self._splitting(test, path, key)
            if split is not None:
                self.splits[key] = split
        return split

    def _splitting(self, test, path: int, key: tuple):
        queries = self._queries(test, path)
        if not all(self._has(q) for q in queries):
            return None
        known = self.known[queries]
        if not self._flags()[key[1]]:
            return known, queries
        unknown = self.lacking[queries[0]]  # (fetched with the branches' sums, the same for each branch)
        if not unknown.any():  # (cases lacking the value but weighing 0 add nothing anywhere below)
            return known, queries
        bags = known + np.outer(shares_of(seqsum(known, axis=1)), unknown)
        shares = shares_of(seqsum(bags, axis=1))
        children = [
            self.trie.child(path, (key[1], key[2], b, float(s) if gr(s, 0.0) else 0.0)) for b, s in enumerate(shares)
        ]
        return bags, children

    def _children(self, test, path: int) -> list | None:
        """The paths of ``test``'s branches from ``path``: known before their counts when no case
        anywhere lacks the tested value; else once the split is fetched (None until then)."""
        if not self._flags()[self.position[test.attribute.name]]:
            return self._queries(test, path)
        split = self._split(test, path)
        return None if split is None else split[1]

    def _flags(self) -> np.ndarray:
        if self.missing is None:
            futures = self.client.map(missing_by_attribute, self.parts, is_nominal=self.is_nominal, slot=self.slot)
            self.missing = summed(self.client, futures) > 0
            self.passes += 1
        return self.missing

    def _fetch(self, asked: list) -> None:
        """``asked`` and every path the pruning may ask next, a pass per round of the walk (``_walk``)."""
        items = self._tops()
        while True:
            blocked, wanted = self._walk(items)
            wanted.update(p for p in asked if not self._has(p))
            if not wanted:
                return
            self._pass(wanted)
            items = blocked

    def _pass(self, wanted: set) -> None:
        listed, arrays = self.trie.listing(wanted, self.is_nominal, self.slot)
        futures = self.client.map(path_counts, self.parts, paths=shipped(self.client, arrays), n_classes=self.n_classes)
        counts, lacking = summed(self.client, futures)
        if self.trie.n > len(self.have):
            grown = self.trie.n + self.trie.n // 2
            self.known = np.concatenate([self.known, np.zeros((grown - len(self.known), self.n_classes))])
            self.have = np.concatenate([self.have, np.zeros(grown - len(self.have), dtype=bool)])
            self.lacking = np.concatenate([self.lacking, np.zeros((grown - len(self.lacking), self.n_classes))])
        self.known[listed], self.have[listed], self.lacking[listed] = counts, True, lacking
        self.passes += 1

    def _tops(self) -> list:
        if self.top is None:
            return [(self.root, self.grown, OWN)]
        return [(self.top.data, self.top, OWN)]

    def _walk(self, items: list) -> tuple[list, set]:
        """From ``items`` (path, node, kind) down the tree as far as the paths are known: the items
        waiting for a pass, and the paths that pass must fetch. A node's largest branch not known
        yet is guessed from the tree (the grown counts, the working bags) and checked after the pass."""
        stack, blocked, wanted = list(items), [], set()
        while stack:
            item = stack.pop()
            path, node, kind = item
            if node is None:  # leaving the walk below ``kind`` (the item's key): done if it asked for nothing
                if path == (len(wanted), len(blocked)):
                    self.walked.add(kind)
                continue
            test, children = _shape(node)
            key = (id(node), id(test), path, kind)  # (a raised node has its new test: walked anew)
            if key in self.walked:
                continue
            stack.append(((len(wanted), len(blocked)), None, key))
            if not self._has(path):
                wanted.add(path)
            if not children:
                continue
            if kind == BELOW and id(node.node if hasattr(node, "node") else node) in self.leaves:
                continue  # (expected to be a leaf by the time its cases go down it; if not, fetched when asked)
            if kind == LARGEST:
                split = self._split(test, path)
                if split is None:
                    wanted.update(self._queries(test, path))
                    blocked.append(item)
                    stack.append((path, children[max_bag(_guess(node))], BELOW))
                else:
                    stack.append((path, children[max_bag(split[0])], BELOW))
                continue
            parts = self._children(test, path)
            if parts is None:
                wanted.update(self._queries(test, path))
                blocked.append(item)
                continue
            stack.extend((part, child, kind) for part, child in zip(parts, children))
            if kind == OWN and self.raising:
                stack.append((path, node, LARGEST))
        return blocked, wanted


def _shape(node) -> tuple:
    """A grown Node's, or a node of the pruning's working tree's (``pessimistic/reference._P``), test and children."""
    if hasattr(node, "node"):
        return node.node.test, node.children
    return node.test, node.children


def _guess(node) -> np.ndarray:
    """The bags a node had when the tree was grown, or when its working node was last routed."""
    if hasattr(node, "node"):
        return node.bags
    return np.stack([child.counts for child in node.children])


def expected_leaves(root, cf: float, bound: str) -> frozenset:
    """The ids of the grown Nodes that pruning without raising would make leaves, judged on their
    grown counts: what the walk ahead expects to find below a node whose cases go down its largest
    branch (subtree raising asks for that branch's counts once the branch is pruned). Only a guess
    of what to fetch: a wrong one costs a pass, never a different tree."""
    leaves, estimate = set(), {}
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        leaf = estimated_errors(node.counts, cf, bound)
        if not node.children:
            estimate[id(node)] = leaf
        elif done:
            below = sum(estimate.pop(id(child)) for child in node.children)
            if sm_or_eq(leaf, below + 0.1):
                leaves.add(id(node))
            estimate[id(node)] = min(leaf, below) if id(node) in leaves else below
        else:
            stack.append((node, True))
            stack.extend((child, False) for child in node.children)
    return frozenset(leaves)


def prune_dask(client, parts, schema, tree, by_class, prune, original_leaves: int | None = None):
    """``tree`` (grown on the cluster's table) pruned pessimistically with ``prune``'s settings;
    ``original_leaves``: the grown tree's (default: ``tree``'s; its subtrees may come pruned already)."""
    root = tree.root
    original_leaves = root.n_leaves() if original_leaves is None else original_leaves
    leaves = expected_leaves(root, prune.cf, prune.error_bound) if prune.raising else frozenset()
    holder = ClusterCases(client, parts, schema, by_class, prune.raising, root, leaves)
    pruned_root, steps = prune_cases(root, holder.root, holder, prune.cf, prune.raising, prune.error_bound)
    pruned = pruned_tree(tree, pruned_root, prune.cf, prune.raising, prune.error_bound, original_leaves)
    pruned.trace = steps
    return pruned
