"""The work the commands and the Python API share end to end: loading tables, training runs, streamed and Dask prediction, cross-validation."""  # noqa: E501
