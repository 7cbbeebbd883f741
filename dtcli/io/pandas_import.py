"""pandas for reading CSV files, imported as if pyarrow were not installed.

pandas 3 imports pyarrow when it is installed (for its string type), and pyarrow keeps the memory
its own allocator has used: with pyarrow beside pandas (``pip install 'dtree[scale]'`` puts it
there) training on a million rows peaked at 575 MB instead of 485 MB, for no use: dtree's CSV
readers take text columns as pandas categoricals of a few distinct values and turn them into
integer codes at once. So the first import of pandas in a process hides pyarrow from it (a
``None`` entry in ``sys.modules`` is how Python spells "not installed") and then gives pyarrow
back, so that a Parquet reader can still import it. When pyarrow or pandas is already loaded
(by a Parquet reader or Dask), pandas is taken as it is.
"""

from __future__ import annotations

import sys


def pandas():
    """The ``pandas`` module (imported here the first time, without pyarrow: see the module)."""
    module = sys.modules.get("pandas")
    if module is not None:
        return module
    hide = "pyarrow" not in sys.modules
    if hide:
        sys.modules["pyarrow"] = None
    try:
        import pandas as module
    finally:
        if hide and "pyarrow" in sys.modules and sys.modules["pyarrow"] is None:
            del sys.modules["pyarrow"]
    return module
