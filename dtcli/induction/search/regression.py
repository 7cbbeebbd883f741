"""Regression trees (CART on a numeric target): squared error, leaves predict the mean.

Contract: ``check_regression_target(table)`` refuses a target that is not finite or whose squares
overflow; ``node_stats(rows)`` gives a node's weight, mean and mean squared
error; ``regression_choose(rows, min_leaf)`` returns the binary split with
the largest decrease in squared error, or None. Numeric attributes split at
midpoints between adjacent distinct values; nominal attributes at the best
subset, found exactly by ordering the values by their mean target
(Breiman et al. 1984, §9.4). Scores are the decrease in weighted mean
squared error, ``MSE(t) - (W_L MSE(L) + W_R MSE(R)) / W_t``; ties go to the
first attribute and the lowest threshold.
"""

from __future__ import annotations

import numpy as np

from dtcli.errors import DataError
from dtcli.induction.criteria.constants import FEATURE_THRESHOLD
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.criteria.midpoint_single import single_midpoint
from dtcli.induction.search.batched import BATCH_CELLS
from dtcli.induction.search.c45 import Choice
from dtcli.induction.search.ties import single
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest, SubsetTest


def check_regression_target(table: Table) -> None:
    """A regression target must be finite, and small enough that its sums of squares (weight x the
    sum of weight x target^2 over every labelled row, which bounds all the others) stay finite."""
    labelled = np.flatnonzero(table.labelled())
    y, w = table.y[labelled], table.weights[labelled]
    with np.errstate(over="ignore", invalid="ignore"):
        bound = float(w.sum()) * float(np.sum(w * y * y))
    if np.isfinite(bound):
        return
    row = int(labelled[np.argmax(np.abs(y))])
    value = float(table.y[row])
    where = f"{table.source}, {table.where(row)}: the target {table.schema.target.name!r}"
    if not np.isfinite(value):
        raise DataError(
            f"{where} holds {value!r} (or a number beyond the 64-bit range, such as 1e400); "
            "a regression target must be finite: fix the value or leave the row out"
        )
    raise DataError(
        f"{where} holds {value!r}, too large for a regression tree (its sums of squares overflow "
        "64-bit numbers): scale the target down"
    )


def node_stats(rows: Table) -> tuple[float, float, float]:
    """(weight, weighted mean, weighted mean squared error) of the labelled rows.

    The error is ``sum w y^2 / W - (sum w y / W)^2``, as scikit-learn computes
    it, so that cost-complexity alphas agree with it to the last digits.
    """
    w, y = rows.weights, rows.y
    total = float(w.sum())
    if total <= 0:
        return 0.0, 0.0, 0.0
    s, sq = float(np.sum(w * y)), float(np.sum(w * y * y))
    mean = s / total
    return total, mean, max(0.0, sq / total - mean * mean)


def _decrease(w_l, s_l, q_l, w_r, s_r, q_r):
    """MSE decrease from cumulative sums of weight, w*y and w*y^2 on each side."""
    w = w_l + w_r
    sse_parent = (q_l + q_r) - (s_l + s_r) ** 2 / w
    with np.errstate(divide="ignore", invalid="ignore"):
        sse_l = np.where(w_l > 0, q_l - s_l**2 / np.where(w_l > 0, w_l, 1.0), 0.0)
        sse_r = np.where(w_r > 0, q_r - s_r**2 / np.where(w_r > 0, w_r, 1.0), 0.0)
    return (sse_parent - sse_l - sse_r) / w


def numeric_split(rows: Table, i: int, min_leaf: float, exact: bool = False):
    x = single(rows.columns[i]) if exact else rows.columns[i]
    known = ~np.isnan(x)
    order = np.argsort(x[known], kind="stable")
    v, y, w = x[known][order], rows.y[known][order], rows.weights[known][order]
    cuts = np.flatnonzero(v[:-1] + FEATURE_THRESHOLD < v[1:])
    if len(cuts) == 0:
        return None
    cw, cs, cq = np.cumsum(w), np.cumsum(w * y), np.cumsum(w * y * y)
    w_l, s_l, q_l = cw[cuts], cs[cuts], cq[cuts]
    scores = _decrease(w_l, s_l, q_l, cw[-1] - w_l, cs[-1] - s_l, cq[-1] - q_l)
    ok = (w_l >= min_leaf) & (cw[-1] - w_l >= min_leaf)
    if not ok.any():
        return None
    if exact:  # scikit-learn's proxy: S_L^2 / W_L + S_R^2 / W_R (undefined where a side weighs 0: not ok)
        with np.errstate(divide="ignore", invalid="ignore"):
            rank = s_l * s_l / w_l + (cs[-1] - s_l) * (cs[-1] - s_l) / (cw[-1] - w_l)
    else:
        rank = scores
    best = int(np.argmax(np.where(ok, rank, -np.inf)))
    lower, upper = float(v[cuts[best]]), float(v[cuts[best] + 1])
    threshold = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
    test = NumericTest(rows.attributes[i], threshold)
    return float(scores[best]), test, float(w.sum()), float(rank[best])  # w: the known rows' weights


def numeric_splits(rows: Table, attributes: list[int], min_leaf: float, exact: bool = False) -> list:
    """``numeric_split`` of each of ``attributes`` (numeric) at a node, bit for bit, the attributes side by
    side: one stable sort of them all (missing values last), running sums along each attribute's row
    (``np.cumsum``: one addition at a time, as for one attribute; a missing row, after every known one,
    adds nothing to a cut), every score with the same operations, and each attribute's best cut by
    ``np.argmax`` over its own cuts. A batch holds at most ``BATCH_CELLS`` cells in its 8 arrays."""
    per_batch = max(1, BATCH_CELLS // max(1, 8 * rows.n_rows))  # about 8 arrays of a cell each
    found: list = []
    for start in range(0, len(attributes), per_batch):
        found.extend(_numeric_batch(rows, attributes[start : start + per_batch], min_leaf, exact))
    return found


def _numeric_batch(rows: Table, attributes: list[int], min_leaf: float, exact: bool) -> list:
    n_attributes, n_rows = len(attributes), rows.n_rows
    if n_attributes == 0 or n_rows < 2:
        return [None] * n_attributes
    values = np.stack([rows.columns[i] for i in attributes])
    if exact:
        values = single(values)
    order = np.argsort(values, axis=1, kind="stable")  # NaN last
    v = np.take_along_axis(values, order, axis=1)
    missing = np.isnan(v)
    n_known = (n_rows - missing.sum(axis=1)).tolist()
    w = np.where(missing, 0.0, rows.weights[order])
    y = rows.y[order]
    cw, cs, cq = np.cumsum(w, axis=1), np.cumsum(w * y, axis=1), np.cumsum(w * y * y, axis=1)
    with np.errstate(invalid="ignore", over="ignore"):
        attribute, position = np.nonzero(v[:, :-1] + FEATURE_THRESHOLD < v[:, 1:])
    if not len(attribute):
        return [None] * n_attributes
    last = np.maximum(np.array(n_known) - 1, 0)[attribute]  # each cut's attribute's last known row
    w_all, s_all, q_all = cw[attribute, last], cs[attribute, last], cq[attribute, last]
    w_l, s_l, q_l = cw[attribute, position], cs[attribute, position], cq[attribute, position]
    scores = _decrease(w_l, s_l, q_l, w_all - w_l, s_all - s_l, q_all - q_l)
    ok = (w_l >= min_leaf) & (w_all - w_l >= min_leaf)
    if exact:  # as in numeric_split
        with np.errstate(divide="ignore", invalid="ignore"):
            rank = s_l * s_l / w_l + (s_all - s_l) * (s_all - s_l) / (w_all - w_l)
    else:
        rank = scores
    ranked = np.where(ok, rank, -np.inf)
    bounds = np.searchsorted(attribute, np.arange(n_attributes + 1)).tolist()
    found: list = []
    for j, i in enumerate(attributes):
        start, end = bounds[j], bounds[j + 1]
        if start == end or not ok[start:end].any():
            found.append(None)
            continue
        best = start + int(np.argmax(ranked[start:end]))
        lower, upper = float(v[j, position[best]]), float(v[j, position[best] + 1])
        threshold = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
        known = float(w[j, : n_known[j]].sum())  # the known rows' weights, summed as numeric_split sums them
        found.append((float(scores[best]), NumericTest(rows.attributes[i], threshold), known, float(rank[best])))
    return found


def nominal_split(rows: Table, i: int, min_leaf: float):
    attribute = rows.attributes[i]
    codes = rows.columns[i]
    known = codes >= 0
    n = len(attribute.values)
    w = np.bincount(codes[known], weights=rows.weights[known], minlength=n)
    s = np.bincount(codes[known], weights=(rows.weights * rows.y)[known], minlength=n)
    q = np.bincount(codes[known], weights=(rows.weights * rows.y**2)[known], minlength=n)
    present = np.flatnonzero(w > 0)
    if len(present) < 2:
        return None
    order = present[np.argsort(s[present] / w[present], kind="stable")]
    cw, cs, cq = np.cumsum(w[order])[:-1], np.cumsum(s[order])[:-1], np.cumsum(q[order])[:-1]
    scores = _decrease(cw, cs, cq, w.sum() - cw, s.sum() - cs, q.sum() - cq)
    ok = (cw >= min_leaf) & (w.sum() - cw >= min_leaf)
    if not ok.any():
        return None
    scores = np.where(ok, scores, -np.inf)
    k = int(np.argmax(scores)) + 1
    chosen, others = order[:k], order[k:]
    inside = chosen if len(chosen) <= len(others) else others
    values = tuple(attribute.values[j] for j in sorted(inside))
    w_l, s_l, w_all, s_all = float(cw[k - 1]), float(cs[k - 1]), float(w.sum()), float(s.sum())
    proxy = s_l * s_l / w_l + (s_all - s_l) * (s_all - s_l) / (w_all - w_l)  # scikit-learn's, as for numbers
    return float(scores[k - 1]), SubsetTest(attribute, values), w_all, proxy


def nominal_splits(rows: Table, attributes: list[int], min_leaf: float) -> list:
    """``nominal_split`` of each of ``attributes`` (nominal) at a node, bit for bit, the attributes side
    by side: each sum of weight, weight x target and weight x target^2 by value in one ``np.bincount``
    for them all (each cell's rows added in row order, as one attribute's count adds them), every
    attribute's values ordered by mean target with one stable sort (absent values last), the running
    sums and scores with the same operations as for one attribute, and each one's totals summed over
    its own values (numpy's pairwise sums depend on how many there are)."""
    n_attributes = len(attributes)
    if n_attributes == 0:
        return []
    sizes = [len(rows.attributes[i].values) for i in attributes]
    width = max(max(sizes), 1)
    if n_attributes * width > BATCH_CELLS or rows.n_rows * n_attributes > BATCH_CELLS:
        return [nominal_split(rows, i, min_leaf) for i in attributes]
    codes = np.stack([rows.columns[i] for i in attributes], axis=1).astype(np.int64)
    cells = codes + (np.arange(n_attributes) * width)[None, :]
    cells[codes < 0] = n_attributes * width  # missing: counted apart, and dropped
    cells = cells.ravel()
    w, wy, wyy = rows.weights, rows.weights * rows.y, rows.weights * rows.y**2
    sums = []
    for weights in (w, wy, wyy):
        spread = np.broadcast_to(weights[:, None], codes.shape).ravel()
        flat = np.bincount(cells, weights=spread, minlength=n_attributes * width + 1)
        sums.append(flat[:-1].reshape(n_attributes, width))
    W, S, Q = sums
    present = W > 0
    n_present = present.sum(axis=1).tolist()
    with np.errstate(divide="ignore", invalid="ignore"):
        means = np.where(present, S / np.where(present, W, 1.0), np.inf)
    order = np.argsort(means, axis=1, kind="stable")  # each attribute's present values by mean, in order
    cw, cs, cq = (np.cumsum(np.take_along_axis(x, order, axis=1), axis=1)[:, :-1] for x in (W, S, Q))
    tw, ts, tq = (np.array([x[j, : sizes[j]].sum() for j in range(n_attributes)]) for x in (W, S, Q))
    with np.errstate(divide="ignore", invalid="ignore"):  # (the padding after an attribute's cuts)
        scores = _decrease(cw, cs, cq, tw[:, None] - cw, ts[:, None] - cs, tq[:, None] - cq)
    cuts = np.arange(width - 1)[None, :] < (np.array(n_present) - 1)[:, None]  # a cut between present values
    ok = cuts & (cw >= min_leaf) & (tw[:, None] - cw >= min_leaf)
    ranked = np.where(ok, scores, -np.inf)
    best = np.argmax(ranked, axis=1).tolist() if width > 1 else [0] * n_attributes
    admissible = ok.any(axis=1).tolist()
    found: list = []
    for j, i in enumerate(attributes):
        if n_present[j] < 2 or not admissible[j]:
            found.append(None)
            continue
        attribute, k = rows.attributes[i], best[j] + 1
        chosen, others = order[j, :k], order[j, k : n_present[j]]
        inside = chosen if len(chosen) <= len(others) else others
        values = tuple(attribute.values[v] for v in sorted(inside.tolist()))
        w_l, s_l, w_all, s_all = float(cw[j, k - 1]), float(cs[j, k - 1]), float(tw[j]), float(ts[j])
        proxy = s_l * s_l / w_l + (s_all - s_l) * (s_all - s_l) / (w_all - w_l)  # as nominal_split's
        found.append((float(ranked[j, k - 1]), SubsetTest(attribute, values), w_all, proxy))
    return found


def regression_choose(rows: Table, min_leaf: float, order: list[int] | None = None) -> Choice | None:
    """The binary split of largest squared-error decrease (scaled by the known share).

    With ``order`` (scikit-learn's visiting order) attributes are tried in
    that order, numbers in single precision, compared by scikit-learn's proxy.
    """
    total = float(rows.weights.sum())
    node_sum = float(np.sum(rows.weights * rows.y))
    exact = order is not None
    visiting = list(order) if exact else list(range(len(rows.attributes)))
    numeric = [i for i in visiting if not rows.attributes[i].is_nominal]
    nominal = [i for i in visiting if rows.attributes[i].is_nominal]
    splits = dict(zip(numeric, numeric_splits(rows, numeric, min_leaf, exact)))
    splits.update(zip(nominal, nominal_splits(rows, nominal, min_leaf)))
    best, best_key = None, -np.inf
    for i in visiting:
        found = splits[i]
        if found is None:
            continue
        score, test, known, key = found
        score *= known / total if total > 0 else 0.0
        if not exact:
            key = score
        elif known != total:  # on the proxy's scale: W x decrease + S^2 / W (S: the sum of weight x target)
            key = total * score + node_sum * node_sum / total
        if best is None or key > best_key:
            best, best_key = Choice(test, score, score), key
    return best


def regression_candidates(rows: Table, min_leaf: float) -> list[tuple[int, float, object]]:
    """Each attribute's best binary split, in column order: (attribute index, MSE decrease scaled
    by the known share, test). Attributes that cannot split the rows are left out."""
    total = float(rows.weights.sum())
    found = []
    for i, attribute in enumerate(rows.attributes):
        split = nominal_split(rows, i, min_leaf) if attribute.is_nominal else numeric_split(rows, i, min_leaf)
        if split is not None:
            score, test, known, _ = split
            found.append((i, score * (known / total if total > 0 else 0.0), test))
    return found


def regression_report(rows: Table) -> tuple[tuple[float, float, float], list[tuple[str, object, float]]]:
    """Node stats and, per attribute, its best binary split and MSE decrease, best first.

    Attributes that cannot split the rows are left out. Ties keep column order.
    """
    check_regression_target(rows)
    stats = node_stats(rows)
    total = float(rows.weights.sum())
    found = []
    for i, attribute in enumerate(rows.attributes):
        split = nominal_split(rows, i, 1.0) if attribute.is_nominal else numeric_split(rows, i, 1.0)
        if split is not None:
            score, test, known, _ = split
            found.append((attribute.name, test, score * (known / total if total > 0 else 0.0)))
    found.sort(key=lambda f: -f[2])
    return stats, found
