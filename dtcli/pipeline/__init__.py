"""The work the commands and the Python API share: loading tables, training, streamed and Dask prediction, CV."""
