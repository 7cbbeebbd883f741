"""Choosing among scored splits, in plain Python: the best score, first in column order on ties.

The tie rule is stated in man/dtree-algorithms.7.

Every path that chooses a split by its computed score shares these: the per-node grower
(``split.candidates`` then ``choose``), and ``dtree gain``'s report with numpy
(``explain/report.py``) and without it (``plain/report.py``). A candidate is anything with
``attribute`` (its column), ``gain`` (information gain) and ``score`` (the criterion's value).
Scores are compared exactly as computed (``split.py`` says why).
"""

from __future__ import annotations

import math

from dtcli.induction.criteria.constants import AVERAGE_GAIN_SLACK


def choose(found: list, criterion: str):
    """The best candidate by score, first in column order on ties (None without a finite score).

    For gain ratio, Quinlan's rule applies (C4.5, Mitchell §3.7.3): only
    candidates whose gain is at least the average gain (less ``AVERAGE_GAIN_SLACK``) compete.
    """
    pool = [c for c in found if math.isfinite(c.score)]
    if criterion == "gain-ratio" and pool:
        pool = eligible(found)[1]
    best = None
    for candidate in pool:
        if best is None or better(candidate, best):
            best = candidate
    return best


def eligible(found: list) -> tuple[float | None, list]:
    """Quinlan's rule for gain ratio: (the average gain of the candidates with a finite score, those
    among them whose gain is at least that average less ``AVERAGE_GAIN_SLACK``); (None, []) without any."""
    pool = [c for c in found if math.isfinite(c.score)]
    if not pool:
        return None, []
    average = sum(c.gain for c in pool) / len(pool)
    return average, [c for c in pool if c.gain >= average - AVERAGE_GAIN_SLACK]


def better(a, b) -> bool:
    """True when ``a`` beats ``b`` (a higher computed score; ties keep ``b``)."""
    return a.score > b.score


def near_ties(found: list, best, places: int = 12) -> list:
    """Other candidates whose score equals the best one's to ``places`` decimals."""
    return [c for c in found if c is not best and abs(c.score - best.score) < 10.0**-places]


def best_first(a, b) -> int:
    """A comparison (``functools.cmp_to_key``) putting candidates in the order ``choose`` prefers:
    higher score first, column order on ties."""
    if better(a, b):
        return -1
    if better(b, a):
        return 1
    return a.attribute - b.attribute
