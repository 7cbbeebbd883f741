"""Small array steps the kernels share, written as loops where numba's own form compiles slowly.

numba compiles ``target[:] = source`` (an array into a slice, in one dimension or two) with its
broadcasting checks and the string code of their error messages: about 3 s the first time a process
compiles one, a share of every first run's wait on a new machine (``compiling.py``). A loop copies
the same values.
"""

from __future__ import annotations

from dtcli.induction.kernels.jit import kernel


@kernel
def copy_into(target, source):
    """``target[:] = source`` for two arrays of one dimension and the same length (``target`` may be a
    row or slice of a larger array: it is written through)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@kernel
def copy_rows(target, source):
    """``target[:, : source.shape[1]] = source`` for two arrays of two dimensions, ``target`` with at
    least ``source``'s rows and columns."""
    for r in range(source.shape[0]):
        for i in range(source.shape[1]):
            target[r, i] = source[r, i]
