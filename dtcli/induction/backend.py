"""When the compiled engine runs.

``ENGINE_MIN_ROWS``: below this many rows the per-node numpy path is fast
enough and starts without importing numba (start-up matters to scripts that
call dtree thousands of times on small files). ``DTREE_ENGINE=numpy`` forces
the per-node reference path, ``DTREE_ENGINE=numba`` the level-wise engine
(``engine``), whatever the size; the default ``auto`` picks by size.
"""

from __future__ import annotations

import os

ENGINE_MIN_ROWS = 5_000  # measured: numba start-up (~0.5 s) pays off from about 4,000 rows
CHOICES = ("auto", "numpy", "numba")


def engine_choice() -> str:
    """The engine asked for in ``DTREE_ENGINE`` (``auto`` when unset or unknown)."""
    choice = os.environ.get("DTREE_ENGINE", "auto").strip().lower()
    return choice if choice in CHOICES else "auto"
