"""The name ``cli/train.py`` imports for the Dask training-set count; it lives in ``pipeline/predict_dask``."""

from __future__ import annotations

from dtcli.pipeline.predict_dask import training_correct

__all__ = ["training_correct"]
