"""Judging trees on data: metrics of predictions against known classes or values, test sets, cross-validation."""
