"""The pruning's paths (``distributed/path_sums.py``): interned once each in a ``Trie``, listed in preorder with
every prefix, and a partition's class sums along them equal to a walk path by path, condition by condition."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from dtcli.induction.criteria.constants import GRID_SCALE, SMALL, on_grid
from dtcli.induction.distributed.path_sums import Trie, path_counts

IS_NOMINAL = np.array([True, False, True, False])
SLOT = np.array([0, 0, 1, 1])


def _partition(seed: int, n: int = 400):
    """Two nominal attributes (3 and 2 values) and two numeric ones, each with missing values; 3 classes,
    and some unlabelled rows (class -1), which no path counts."""
    rng = np.random.default_rng(seed)
    nominal = np.stack([rng.integers(-1, 3, n), rng.integers(-1, 2, n)]).astype(np.int32)
    numeric = rng.integers(0, 6, (2, n)).astype(np.float64)
    numeric[rng.random((2, n)) < 0.1] = np.nan
    y = rng.integers(-1, 3, n).astype(np.int8)
    return SimpleNamespace(nominal=nominal, numeric=numeric, y=y)


def _conditions(trie: Trie, q: int) -> list:
    chain = []
    while q != Trie.ROOT:
        chain.append(trie.last(q))
        q = int(trie.parent[q])
    return chain[::-1]


def _by_hand(enc, chain: list, n_classes: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """The class sums of the rows along ``chain``, and of the rows before its last condition that lack
    its tested value: each row's weight carried condition by condition."""
    counts, lacking = np.zeros(n_classes), np.zeros(n_classes)
    for r in range(len(enc.y)):
        if enc.y[r] < 0:
            continue
        w = 1.0
        for depth, (a, thr, branch, share) in enumerate(chain):
            if IS_NOMINAL[a]:
                code = enc.nominal[SLOT[a], r]
                missing, takes = code < 0, code == branch
            else:
                v = enc.numeric[SLOT[a], r]
                missing = bool(np.isnan(v))
                takes = (v <= thr) if branch == 0 else (not missing and v > thr)
            if missing:
                if depth == len(chain) - 1:
                    lacking[enc.y[r]] += w
                w = float(np.rint(w * share * GRID_SCALE) / GRID_SCALE) if share > SMALL else 0.0
            elif not takes:
                w = 0.0
            if w == 0.0:
                break
        else:
            counts[enc.y[r]] += w
    return counts, lacking


def _random_paths(trie: Trie, rng, n: int) -> list:
    """``n`` paths of up to 6 conditions, sharing prefixes, some with shares of the missing cases."""
    asked = []
    for _ in range(n):
        q = Trie.ROOT
        for _ in range(rng.integers(1, 7)):
            a = int(rng.integers(0, 4))
            branches = (3, 2, 2, 2)[a]
            share = float(on_grid(rng.random())) if rng.random() < 0.4 else 0.0
            thr = float(rng.integers(0, 6)) + 0.5 if not IS_NOMINAL[a] else 0.0
            q = trie.child(q, (a, thr, int(rng.integers(0, branches)), share))
        asked.append(q)
    return asked


def test_a_path_is_interned_once():
    trie = Trie()
    a = trie.child(Trie.ROOT, (1, 2.5, 0, 0.0))
    b = trie.child(a, (0, 0.0, 2, 0.25))
    assert trie.child(Trie.ROOT, (1, 2.5, 0, 0.0)) == a and trie.child(a, (0, 0.0, 2, 0.25)) == b
    assert trie.child(Trie.ROOT, (1, 2.5, 1, 0.0)) not in (a, b)  # another branch, another path
    assert trie.child(a, (0, 0.0, 2, 0.5)) != b  # another share of the missing cases too
    assert _conditions(trie, b) == [(1, 2.5, 0, 0.0), (0, 0.0, 2, 0.25)] and trie.depth[b] == 2


def test_the_trie_grows_past_its_first_columns():
    trie, q = Trie(), Trie.ROOT
    for i in range(3000):  # (the columns start at 1024 entries)
        q = trie.child(q, (i % 4, 0.5, i % 2, 0.0))
    assert trie.n == 3001 and trie.depth[q] == 3000 and _conditions(trie, q)[-1] == (3, 0.5, 1, 0.0)


@pytest.mark.parametrize("seed", range(4))
def test_listing_is_a_preorder_of_every_prefix(seed):
    rng = np.random.default_rng(seed)
    trie = Trie()
    asked = _random_paths(trie, rng, 60)
    listed, arrays = trie.listing(set(asked[::2]), IS_NOMINAL, SLOT)
    prefixes = set()
    for q in asked[::2]:
        while q != Trie.ROOT:
            prefixes.add(q)
            q = int(trie.parent[q])
    assert sorted(listed.tolist()) == sorted(prefixes)  # each once, the root left out
    seen = {Trie.ROOT}
    for i, q in enumerate(listed.tolist()):
        assert int(trie.parent[q]) in seen  # a prefix before its extensions
        seen.add(q)
        assert arrays.depth[i] == trie.depth[q] and (arrays.attr[i], arrays.thr[i]) == trie.last(q)[:2]
        end = i + 1  # its extensions, with theirs, right after it: the deeper rows that follow
        while end < len(listed) and arrays.depth[end] > arrays.depth[i]:
            end += 1
        inside = set(listed[i + 1 : end].tolist())
        assert all(_conditions(trie, p)[: len(_conditions(trie, q))] == _conditions(trie, q) for p in inside)


@pytest.mark.parametrize("seed", range(3))
def test_a_partitions_sums_are_the_walk_path_by_path(seed):
    rng = np.random.default_rng(10 + seed)
    enc = _partition(seed)
    trie = Trie()
    asked = _random_paths(trie, rng, 80)
    listed, arrays = trie.listing(set(asked), IS_NOMINAL, SLOT)
    counts, lacking = path_counts(enc, arrays, 3)
    for i, q in enumerate(listed.tolist()):
        want_counts, want_lacking = _by_hand(enc, _conditions(trie, q))
        assert counts[i].tolist() == want_counts.tolist() and lacking[i].tolist() == want_lacking.tolist()
