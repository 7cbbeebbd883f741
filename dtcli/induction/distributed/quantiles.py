"""``--max-bins`` on the cluster: the bins ``search/bins.py: bin_codes`` makes, computed exactly.

A numeric attribute with at most N distinct labelled known values has each as its own bin (one
pass: each partition sends its distinct values, or none once it has more than N). Otherwise the
bin edges are ``np.quantile(values, q, method="inverted_cdf")``, which picks the values at
known positions of the sorted values (``positions``); those are found by an exact radix selection
over the values' 64-bit order-preserving keys, one byte a pass (8 passes; each sends a 256-bucket
histogram per position still being resolved, never values). One more pass takes each bin's
largest value (over every known value, labelled or not, as ``bin_codes``) and drops empty bins.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.distributed.cluster import summed

SIGN = np.uint64(1 << 63)


def positions(n: int, quantiles: np.ndarray) -> np.ndarray:
    """The 0-based positions in ``n`` sorted values that ``np.quantile(..., method="inverted_cdf")``
    returns (numpy's rule: virtual index ``n q - 1``, taken when whole, else the next one up)."""
    index = n * quantiles - 1
    below = np.floor(index)
    chosen = np.where(index - below == 0, below, below + 1)
    return np.clip(chosen, 0, n - 1).astype(np.int64)


def keys(values: np.ndarray) -> np.ndarray:
    """Unsigned keys in the order of the (non-NaN) float64 values."""
    bits = values.view(np.uint64)
    return np.where(bits & SIGN, ~bits, bits | SIGN)


def value_of(key: int) -> float:
    key = np.uint64(key)
    bits = key & ~SIGN if key & SIGN else ~key
    return float(np.array([bits], dtype=np.uint64).view(np.float64)[0])


def _distinct(enc, cap: int) -> dict:
    """Per numeric attribute: (labelled known values, their distinct values or None beyond ``cap``)."""
    labelled = enc.y >= 0
    found = {}
    for j, column in enumerate(enc.numeric):
        values = column[labelled & ~np.isnan(column)]
        distinct = np.unique(values)
        found[j] = (len(values), distinct if len(distinct) <= cap else None)
    return found


def _digits(enc, wanted: dict, shift: int) -> dict:
    """Per attribute ``j``: for each prefix of ``wanted[j]`` (sorted), the counts of the next byte
    of the keys of the labelled known values that start with it."""
    labelled = enc.y >= 0
    found = {}
    for j, prefixes in wanted.items():
        column = enc.numeric[j]
        k = keys(column[labelled & ~np.isnan(column)])
        top = k >> np.uint64(shift + 8) if shift < 56 else np.zeros(len(k), dtype=np.uint64)
        at = np.minimum(np.searchsorted(prefixes, top), len(prefixes) - 1)
        hit = prefixes[at] == top
        digit = ((k[hit] >> np.uint64(shift)) & np.uint64(255)).astype(np.int64)
        found[j] = np.bincount(at[hit] * 256 + digit, minlength=256 * len(prefixes)).reshape(len(prefixes), 256)
    return found


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
    partial = client.map(_tops, futures, edges=j_edges)
    tops = partial[0].result()
    for more in partial[1:]:
        for j, t in more.result().items():
            np.maximum(tops[j], t, out=tops[j])  # (a maximum: exact in any order)
    return tops


def select(client, futures: list, wanted: dict) -> dict:
    """Per attribute ``j``: the values at the sorted positions ``wanted[j]``, found byte by byte."""
    prefix = {j: np.zeros(len(p), dtype=np.uint64) for j, p in wanted.items()}
    offset = {j: p.copy() for j, p in wanted.items()}
    for shift in range(56, -8, -8):
        asked = {j: np.unique(prefix[j]) for j in wanted}
        counts = summed(client, client.map(_digits, futures, wanted=asked, shift=shift))
        for j in wanted:
            row = np.searchsorted(asked[j], prefix[j])
            cum = np.cumsum(counts[j][row], axis=1)
            digit = (cum <= offset[j][:, None]).sum(axis=1)
            offset[j] -= np.where(digit > 0, cum[np.arange(len(row)), np.maximum(digit - 1, 0)], 0)
            prefix[j] = (prefix[j] << np.uint64(8)) | digit.astype(np.uint64)
    return {j: np.array([value_of(k) for k in prefix[j]]) for j in wanted}


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
    for j, values in select(client, futures, wanted).items():
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
