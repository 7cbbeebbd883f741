"""The Dask engine's kernels: C4.5's split scores from a shard's summed cells."""
