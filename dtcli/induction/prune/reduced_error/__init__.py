"""Reduced-error pruning (Mitchell 1997, §3.7.1.1): hold-out sets, kept counts and the overfitting curve."""
