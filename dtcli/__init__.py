"""dtree: decision trees (ID3, C4.5, CART) from CSV and ARFF files."""

from dtcli.version import __version__ as __version__

# The Python API (dtcli/api/), loaded on first use: ``import dtcli`` stays light (no numpy, pandas,
# numba, scikit-learn). importlib, not an import statement: the package is complete before any of
# these run.
API = ("fit", "load_model", "gain", "cross_validate", "diff", "Model", "GainTable", "Evaluation", "Report",
       "Difference", "DtreeError", "DataError", "ModelFormatError", "ParameterError", "DtreeWarning")  # fmt: skip


def __getattr__(name: str):
    if name in API:
        import importlib

        return getattr(importlib.import_module("dtcli.api"), name)
    raise AttributeError(f"module 'dtcli' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *API])
