"""Compiled (numba) prediction kernels: each row walks its own path through the flattened tree."""
