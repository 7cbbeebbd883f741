"""C4.5's error-based (pessimistic) pruning: the reference, the flat form for large trees, and its compiled kernels."""
