"""Compiled pruning code (numba code only): C4.5's error-based pruning on a flat tree."""
