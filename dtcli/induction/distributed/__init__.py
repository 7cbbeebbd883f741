"""The Dask engine (``--engine dask``): C4.5 grown level by level from counts summed on a cluster."""
