"""scikit-learn's attribute visiting order, compiled (``sklearn_order.SklearnOrder``'s twin).

The generator, the Fisher-Yates draws and the constant-attribute
bookkeeping, step for step as ``SklearnOrder.visit`` and ``is_constant``
do them, on the CART builder's data layout (``cart_grow``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.search.ties import FEATURE_THRESHOLD, RAND_R_MAX


@njit(cache=True, nogil=True)
def _rand_int(state, low, high):
    s = state[0]
    if s == 0:
        s = 1
    s ^= (s << 13) & 0xFFFFFFFF
    s ^= s >> 17
    s ^= (s << 5) & 0xFFFFFFFF
    state[0] = s
    return low + (s % (RAND_R_MAX + 1)) % (high - low)


@njit(cache=True, nogil=True)
def _constant(a, is_nominal, slot, codes, values, rs, re, lists, ls, le):
    """``sklearn_order.is_constant`` at a node (``codes``: the node's rows' nominal codes, by position)."""
    if is_nominal[a]:
        first = -1
        for i in range(rs, re):
            code = codes[slot[a], i]
            if code >= 0:
                if first < 0:
                    first = code
                elif code != first:
                    return False
        return True
    s = slot[a]
    if le[s] <= ls[s]:
        return True
    low = values[s, lists[s, ls[s]]]
    high = values[s, lists[s, le[s] - 1]]
    return high <= low + FEATURE_THRESHOLD


@njit(cache=True, nogil=True)
def visit(state, features, constant, n_known, is_nominal, slot, codes, values, rs, re, lists, ls, le):
    """``SklearnOrder.visit``: the attributes to evaluate in order, and the constant count."""
    d = features.shape[0]
    f_i, n_found, n_drawn, n_total, visited = d, 0, 0, n_known, 0
    order = np.empty(d, dtype=np.int64)
    n_order = 0
    while f_i > n_total and (visited < d or visited <= n_found + n_drawn):
        visited += 1
        f_j = _rand_int(state, n_drawn, f_i - n_found)
        if f_j < n_known:
            features[n_drawn], features[f_j] = features[f_j], features[n_drawn]
            n_drawn += 1
            continue
        f_j += n_found
        if _constant(features[f_j], is_nominal, slot, codes, values, rs, re, lists, ls, le):
            features[f_j], features[n_total] = features[n_total], features[f_j]
            n_found += 1
            n_total += 1
            continue
        f_i -= 1
        features[f_i], features[f_j] = features[f_j], features[f_i]
        order[n_order] = features[f_i]
        n_order += 1
    for i in range(n_known):
        features[i] = constant[i]
    for i in range(n_known, n_known + n_found):
        constant[i] = features[i]
    return order[:n_order], n_total
