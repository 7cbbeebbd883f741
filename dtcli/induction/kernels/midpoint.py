"""A cut's threshold, compiled: the very functions of ``criteria/midpoint.py``, for the CART kernels."""

from __future__ import annotations

from numba import njit

from dtcli.induction.criteria.midpoint import midpoint as _midpoint
from dtcli.induction.criteria.midpoint import single_midpoint as _single_midpoint

midpoint = njit(cache=True, nogil=True)(_midpoint)
single_midpoint = njit(cache=True, nogil=True)(_single_midpoint)
