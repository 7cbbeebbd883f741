"""``--max-bins`` on the cluster: the bins ``search/bins.py: bin_codes`` makes, computed exactly.

A numeric attribute with at most N distinct labelled known values has each as its own bin. Otherwise
the bin edges are ``np.quantile(values, q, method="inverted_cdf")``, which picks the values at known
positions of the sorted values (``positions``). Three passes, none sending a whole column:

1. each partition sorts its labelled known values and sends their count, its distinct values (none
   once it has more than N) and every s-th of them (about ``SAMPLES``);
2. from the samples the client brackets each wanted position between two values ``lo < hi`` that
   surely hold it (a partition with k samples at or below v has from k s to (k + 1) s - 1 of its
   values there); each partition sends its number of values at or below ``lo`` and its distinct values
   in (lo, hi] with their counts, and the client counts its way to the position, exactly;
3. each bin's largest value (over every known value, labelled or not, as ``bin_codes``), which drops
   empty bins.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.distributed.cluster import shipped

SAMPLES = 2048  # sorted values a partition sends per numeric attribute to bracket the quantiles


def positions(n: int, quantiles: np.ndarray) -> np.ndarray:
    """The 0-based positions in ``n`` sorted values that ``np.quantile(..., method="inverted_cdf")``
    returns (numpy's rule: virtual index ``n q - 1``, taken when whole, else the next one up)."""
    index = n * quantiles - 1
    below = np.floor(index)
    chosen = np.where(index - below == 0, below, below + 1)
    return np.clip(chosen, 0, n - 1).astype(np.int64)


def _sorted_known(enc, j: int) -> np.ndarray:
    column = enc.numeric[j]
    return np.sort(column[(enc.y >= 0) & ~np.isnan(column)])


def _distinct(enc, cap: int) -> dict:
    """Per numeric attribute: (labelled known values, their distinct values or None beyond ``cap``,
    every ``step``-th of them sorted, ``step``)."""
    found = {}
    for j in range(len(enc.numeric)):
        values = _sorted_known(enc, j)
        distinct = values[np.concatenate(([True], values[1:] != values[:-1]))] if len(values) else values
        step = max(1, -(-len(values) // SAMPLES))
        found[j] = (len(values), distinct if len(distinct) <= cap else None, values[step - 1 :: step], step)
    return found


def _windows(enc, brackets: dict) -> dict:
    """Per attribute: for each (lo, hi) of ``brackets[j]``, the number of this partition's labelled known
    values at or below ``lo``, and its distinct values in (lo, hi] with their counts."""
    found = {}
    for j, (lo, hi) in brackets.items():
        values = _sorted_known(enc, j)
        below = np.searchsorted(values, lo, side="right")
        upto = np.searchsorted(values, hi, side="right")
        found[j] = [(int(b), *np.unique(values[b:u], return_counts=True)) for b, u in zip(below, upto)]
    return found


def _brackets(parts: list, j: int, wanted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each wanted position, ``lo`` (at most that many values at or below it, surely) and ``hi``
    (more than that many at or below it, surely), from the partitions' samples; -inf, inf at the ends."""
    candidates = np.unique(np.concatenate([p[j][2] for p in parts]))
    least = np.zeros(len(candidates), dtype=np.int64)
    most = np.zeros(len(candidates), dtype=np.int64)
    for m, _, sample, step in (p[j] for p in parts):
        k = np.searchsorted(sample, candidates, side="right")
        least += k * step
        most += np.minimum(m, (k + 1) * step - 1)
    at_lo = np.searchsorted(most, wanted, side="right") - 1  # the last candidate with surely <= p at or below
    at_hi = np.searchsorted(least, wanted + 1, side="left")  # the first with surely > p at or below
    lo = np.where(at_lo >= 0, candidates[np.maximum(at_lo, 0)], -np.inf)
    hi = np.where(at_hi < len(candidates), candidates[np.minimum(at_hi, len(candidates) - 1)], np.inf)
    return lo, hi


def select(client, futures: list, parts: list, wanted: dict) -> dict:
    """Per attribute ``j``: the values at the sorted positions ``wanted[j]`` (``parts``: ``_distinct``'s)."""
    brackets, asked = {}, {}
    for j, at in wanted.items():
        lo, hi = _brackets(parts, j, at)
        pairs, which = np.unique(np.stack([lo, hi], axis=1), axis=0, return_inverse=True)
        brackets[j], asked[j] = which.reshape(-1), (pairs[:, 0].copy(), pairs[:, 1].copy())
    windows = [f.result() for f in client.map(_windows, futures, brackets=shipped(client, asked))]
    chosen = {}
    for j, at in wanted.items():
        values = np.empty(len(at))
        for pair in np.unique(brackets[j]):
            below = sum(w[j][pair][0] for w in windows)
            merged = np.concatenate([w[j][pair][1] for w in windows])
            counts = np.concatenate([w[j][pair][2] for w in windows])
            order = np.argsort(merged, kind="stable")
            merged, reached = merged[order], below + np.cumsum(counts[order])
            for i in np.flatnonzero(brackets[j] == pair):
                k = int(np.searchsorted(reached, at[i] + 1, side="left"))
                if not below <= at[i] < (reached[-1] if len(reached) else below) or k >= len(merged):
                    raise AssertionError(f"quantile bracket missed position {at[i]} of attribute {j}")
                values[i] = merged[k]
        chosen[j] = values
    return chosen


def _tops(enc, edges: dict) -> dict:
    """Per attribute: each bin's largest known value (-inf: an empty bin)."""
    found = {}
    for j, e in edges.items():
        column = enc.numeric[j]
        known = column[~np.isnan(column)]
        tops = np.full(len(e) + 1, -np.inf)
        np.maximum.at(tops, np.searchsorted(e, known, side="left"), known)
        found[j] = tops
    return found


def _largest(client, futures: list, j_edges: dict) -> dict:
    partial = client.map(_tops, futures, edges=shipped(client, j_edges))
    tops = partial[0].result()
    for more in partial[1:]:
        for j, t in more.result().items():
            np.maximum(tops[j], t, out=tops[j])  # (a maximum: exact in any order)
    return tops


def numeric_bins(client, futures: list, n_numeric: int, max_bins: int) -> dict:
    """Per numeric attribute ``j`` (by slot): (edges, renumbering of the bins, bins' largest values),
    as ``bin_codes`` makes them on the whole column."""
    parts = [f.result() for f in client.map(_distinct, futures, cap=max_bins)]
    edges, wanted = {}, {}
    for j in range(n_numeric):
        n = sum(p[j][0] for p in parts)
        if all(p[j][1] is not None for p in parts):
            union = np.unique(np.concatenate([p[j][1] for p in parts]))
            if len(union) <= max_bins:
                edges[j] = union
                continue
        wanted[j] = np.unique(positions(n, np.linspace(0, 1, max_bins + 1)[1:-1]))
    for j, values in select(client, futures, parts, wanted).items():
        edges[j] = np.unique(values)
    tops = _largest(client, futures, edges)
    made = {}
    for j, e in edges.items():
        used = np.flatnonzero(tops[j] > -np.inf)
        renumber = np.full(len(tops[j]), -1, dtype=np.int32)
        renumber[used] = np.arange(len(used), dtype=np.int32)
        made[j] = (e, renumber, tops[j][used])
    return made


def bin_of(column: np.ndarray, edges: np.ndarray, renumber: np.ndarray) -> np.ndarray:
    """Each value's bin (-1 missing), as ``bin_codes`` numbers them."""
    known = ~np.isnan(column)
    codes = np.full(len(column), -1, dtype=np.int32)
    codes[known] = renumber[np.searchsorted(edges, column[known], side="left")]
    return codes
