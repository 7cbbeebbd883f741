"""The Dask engine's data: read, encoded and written on the workers, a partition at a time."""
