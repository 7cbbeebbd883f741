"""The Dask engine's kernels: C4.5's split scores from a level's summed histograms."""
