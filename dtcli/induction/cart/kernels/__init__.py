"""Compiled code of the CART builders (numba code only; imported only when a builder runs)."""
