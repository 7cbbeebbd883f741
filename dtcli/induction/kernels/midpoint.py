"""A cut's threshold, compiled: the very functions of ``criteria/midpoint.py``, for the CART kernels."""

from __future__ import annotations

from dtcli.induction.criteria.midpoint import midpoint as _midpoint
from dtcli.induction.criteria.midpoint_single import single_midpoint as _single_midpoint
from dtcli.induction.kernels.jit import kernel

midpoint = kernel(_midpoint)
single_midpoint = kernel(_single_midpoint)
