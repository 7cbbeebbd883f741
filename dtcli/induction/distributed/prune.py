"""The Dask engine's pessimistic pruning: the local pruning's own decisions, on counts summed on the cluster.

Contract: ``prune_dask(client, parts, schema, tree, by_class, prune)`` returns what
``pessimistic_prune`` returns for ``tree`` on the same table (the model file byte for byte), by
running the reference pruning (``prune_cases``: its order of decisions, its every float) with the
cases reaching a node held as a path of tests (``paths.py``) instead of rows. A node's class counts
are those of the rows along its path, counted per partition and summed on the cluster; every weight
is whole, so the counts are exact. Subtree raising sends a node's cases down its largest branch:
the counts of every node of that branch under the new routing are fetched the same way. Counts are
fetched ahead, in one pass, for every path the pruning may ask next (each node's, and each node's
cases down its current largest branch); a path not fetched yet (after a raise) costs one more pass.
Cases that reach a test without its value would be split into fractional cases: refused in one line.
"""

from __future__ import annotations

import numpy as np

from dtcli.errors import ParameterError
from dtcli.induction.distributed.cluster import summed
from dtcli.induction.distributed.paths import path_counts, paths_of
from dtcli.induction.prune.pessimistic_reference import max_bag, prune_cases, pruned_tree


def condition(position: int, test, branch: int) -> tuple:
    """Branch ``branch`` of ``test`` (on the attribute at schema ``position``) as a path's condition."""
    threshold = float(test.threshold) if test.kind == "numeric" else 0.0
    return (position, threshold, branch)


class ClusterCases:
    """The cases reaching a node as a path (a tuple of conditions), their counts fetched from the cluster."""

    def __init__(self, client, parts, schema, by_class, raising: bool, root):
        self.client, self.parts, self.raising = client, parts, raising
        self.attributes = schema.attributes
        self.n_classes = len(schema.classes)
        self.is_nominal = np.array([a.is_nominal for a in schema.attributes], dtype=bool)
        self.slot = np.zeros(len(self.is_nominal), dtype=np.int64)
        self.slot[self.is_nominal] = np.arange(int(self.is_nominal.sum()))
        self.slot[~self.is_nominal] = np.arange(int((~self.is_nominal).sum()))
        self.known = {(): (np.asarray(by_class, dtype=np.float64), 0)}
        self.position = {a.name: i for i, a in enumerate(schema.attributes)}
        self.grown, self.top = root, None
        self.passes = 0

    def counts(self, path: tuple) -> np.ndarray:
        if path not in self.known:
            self._fetch(path)
        counts, missing = self.known[path]
        if missing:
            name = self.attributes[path[-1][0]].name
            raise ParameterError(
                f"--engine dask: pruning would send cases without a value of {name!r} down a test on it, "
                "where C4.5 splits them into fractional cases (not supported by the Dask engine yet): fill the "
                "missing values in, add --no-raise or --no-prune, or leave --engine dask out"
            )
        return counts

    def size(self, path: tuple) -> float:
        return float(self.counts(path).sum())

    def route(self, test, path: tuple) -> tuple[np.ndarray, list]:
        parts = [path + (self.condition(test, b),) for b in range(test.n_branches)]
        return np.stack([self.counts(part) for part in parts]), parts

    def condition(self, test, branch: int) -> tuple:
        return condition(self.position[test.attribute.name], test, branch)

    def watch(self, top) -> None:
        self.top = top

    def _fetch(self, path: tuple) -> None:
        asked = [p for p in self._ahead() if p not in self.known] + [path]
        listed, arrays = paths_of(asked, self.is_nominal, self.slot)
        futures = self.client.map(path_counts, self.parts, paths=arrays, n_classes=self.n_classes)
        counts, missing = summed(self.client, futures)
        for p, c, m in zip(listed, counts.astype(np.float64), missing):
            self.known[p] = (c, int(m))
        self.passes += 1

    def _ahead(self) -> list:
        """The paths the pruning may ask for: every node's, and (with raising) every internal node's
        cases down its largest branch; from the grown Nodes until the working tree is built."""
        if self.top is None:
            shape, bags = _grown, lambda node: np.stack([child.counts for child in node.children])
            top = ((), self.grown)
        else:
            shape, bags = _working, lambda p: p.bags
            top = (self.top.data, self.top)
        asked = []
        stack = [top]
        while stack:
            data, node = stack.pop()
            test, children = shape(node)
            if not children:
                continue
            parts = [data + (self.condition(test, b),) for b in range(len(children))]
            asked.extend(parts)
            stack.extend(zip(parts, children))
            if self.raising:
                asked.extend(data + rel for rel in self._below(children[max_bag(bags(node))], shape))
        return asked

    def _below(self, branch, shape) -> list:
        """The paths, relative to ``branch``, of every node below it."""
        out = []
        stack = [((), branch)]
        while stack:
            rel, node = stack.pop()
            test, children = shape(node)
            for b, child in enumerate(children):
                out.append(rel + (self.condition(test, b),))
                stack.append((out[-1], child))
        return out


def _grown(node) -> tuple:
    return node.test, node.children


def _working(p) -> tuple:
    """A node of the pruning's working tree (``pessimistic._P``): its test and children."""
    return p.node.test, p.children


def prune_dask(client, parts, schema, tree, by_class, prune):
    """``tree`` (grown on the cluster's table) pruned pessimistically with ``prune``'s settings."""
    root = tree.root
    original_leaves = root.n_leaves()
    holder = ClusterCases(client, parts, schema, by_class, prune.raising, root)
    pruned_root, steps = prune_cases(root, (), holder, prune.cf, prune.raising, prune.error_bound)
    pruned = pruned_tree(tree, pruned_root, prune.cf, prune.raising, prune.error_bound, original_leaves)
    pruned.trace = steps
    return pruned
