"""Memory freed by one phase of training given back to the operating system (glibc's ``malloc_trim``).

Large arrays freed in the middle of the C library's heaps (one per thread that allocated them)
stay resident until trimmed: after loading a million rows about 60 MB do, and after the worker
threads' sorts about as much again. ``release()`` trims every heap; it does nothing where the C
library has no ``malloc_trim`` (macOS, musl), and costs a few milliseconds. Called between phases
on large tables only (``LARGE_ROWS``), so that small runs never import ctypes.
"""

from __future__ import annotations

M_ARENA_MAX = -8  # glibc's mallopt parameter
LARGE_ROWS = 100_000  # tables from this many rows trim between phases

_trim = None


def release(n_rows: int = LARGE_ROWS) -> None:
    """Give the memory freed so far back to the operating system, for a table of ``n_rows`` rows."""
    global _trim
    if n_rows < LARGE_ROWS:
        return
    if _trim is None:
        try:
            import ctypes

            libc = ctypes.CDLL(None)
            _trim = libc.malloc_trim
            libc.mallopt(M_ARENA_MAX, 1)  # every thread allocates from one heap: no memory stranded in another's
        except (OSError, AttributeError):
            _trim = False
    if _trim:
        _trim(0)
