"""Where a numeric cut's threshold lies: between its two values, finite, without overflow (every engine).

A cut lies between two adjacent distinct values ``lower < upper`` of an
attribute at a node; its test is ``A <= t``, and ``t`` must send ``lower``
left and ``upper`` right: ``lower <= t < upper``.

- ``midpoint`` (64-bit values; ID3 and C4.5 before J48's placement, CART
  with ``--ties column``): ``(lower + upper) / 2``, or ``lower / 2 + upper
  / 2`` where the sum overflows (the midpoint of 1.7e308 and 1.75e308 is
  1.725e308); ``lower`` where rounding puts the midpoint on ``upper``, and
  ``lower`` where a side is infinite. Growth holds an infinite value as the
  largest number of its sign (``LARGEST``, ``model/table.py: saturate``), so
  "a side is infinite" means ``upper == LARGEST`` or ``lower == -LARGEST``
  (an infinite ``lower`` itself gives ``-LARGEST``): a cut
  between 5 and inf has the threshold 5, as J48 and scikit-learn put it
  when the midpoint overflows, and a cut between -inf and 5 the threshold
  -LARGEST (J48 and scikit-learn write -inf there; a model file holds
  finite numbers only).
- ``single_midpoint`` (``criteria/midpoint_single.py``; CART with scikit-learn's ties, whose values are
  single precision, ``search/ties.py: single``, saturated at
  ``LARGEST_SINGLE``): scikit-learn's ``lower / 2 + upper / 2``, moved
  just below itself when it would round up to ``upper`` in single precision
  (a 64-bit value goes left exactly when its single-precision value does:
  no split is made that sends every row one way); where a side is infinite,
  the largest 64-bit number that rounds to ``lower``.

The functions are plain Python on purpose: the CART kernels compile these very
functions (``cart/kernels/evaluate.py``, ``regress.py``), so every engine places
thresholds identically. This module imports no numpy (``dtree gain``'s plain path
uses ``midpoint`` without it); ``single_midpoint`` needs numpy's single precision.
"""

from __future__ import annotations

import math

LARGEST = 1.7976931348623157e308  # the largest 64-bit number: growth holds inf as this


def midpoint(lower, upper):
    """The threshold of the cut between ``lower < upper`` (64-bit values; see the module's rules)."""
    if upper >= LARGEST or lower <= -LARGEST:
        return max(lower, -LARGEST)
    t = (lower + upper) / 2
    if math.isinf(t):
        t = lower / 2 + upper / 2
    if t == upper:
        t = lower
    return t
