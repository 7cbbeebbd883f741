"""Compiled loops of the level-wise engine (numba code only; imported only when the engine runs)."""
