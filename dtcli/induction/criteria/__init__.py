"""Split criteria: impurity, gain, gain ratio, chi-square, costs, error bounds; shared constants and kernel codes."""
