"""When the compiled engine runs.

``ENGINE_MIN_ROWS``: below this many rows the per-node numpy path is fast
enough and starts without importing numba (start-up matters to scripts that
call dtree thousands of times on small files). ``DTREE_ENGINE=numpy`` forces
the per-node reference path, ``DTREE_ENGINE=numba`` the level-wise engine
(``engine``), whatever the size; the default ``auto`` picks by size.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ENGINE_MIN_ROWS = 5_000  # measured: numba start-up (~0.5 s) pays off from about 4,000 rows
CHOICES = ("auto", "numpy", "numba")


def engine_choice() -> str:
    """The engine asked for in ``DTREE_ENGINE`` (``auto`` when unset or unknown)."""
    choice = os.environ.get("DTREE_ENGINE", "auto").strip().lower()
    return choice if choice in CHOICES else "auto"


def cache_dir() -> str:
    """Where numba keeps the compiled kernels: ``~/.cache/dtree/numba/<key>`` (or under
    ``$XDG_CACHE_HOME``), the key a digest of the sources of this package's kernels. numba
    notices when a function's own file changes but not when a function it calls from another
    file does; a new key for any change keeps stale machine code from ever being loaded."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return str(base / "dtree" / "numba" / digest.hexdigest()[:16])


def use_cache_dir() -> None:
    """Point numba at ``cache_dir()`` unless ``NUMBA_CACHE_DIR`` says otherwise; call it before the
    kernels' modules are imported (numba reads the setting when a function is decorated)."""
    if not os.environ.get("NUMBA_CACHE_DIR"):
        os.environ["NUMBA_CACHE_DIR"] = cache_dir()
    config = sys.modules.get("numba.core.config")
    if config is not None and not config.CACHE_DIR:  # numba was imported before the variable was set
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
