"""Learning and using decision trees: numpy and numba only, organised by role in sub-packages."""
