"""The Dask engine (``--engine dask``): C4.5 grown level by level from histograms summed on a cluster."""
