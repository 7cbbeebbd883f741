"""numba's own set-up, begun in a thread of its own while a large table is read.

The first kernel a process runs, compiled or loaded from the cache, waits first for numba's
import and for the registries of types and implementations it fills once per process: about
0.35 s of Python on this project's machine (0.15 s import, 0.2 s registries), whatever the
table. None of it depends on the table, so ``dtree train`` runs ``set_up`` in a daemon thread
before a large table is read (``pipeline/train.py: prepare_engines``): it then runs while
pandas' C parser (which releases the GIL) does, and the kernel's first call finds it done.
It holds numba's compiler lock, as numba does when it fills the registries itself, so that a
kernel called meanwhile waits for it. A failure here (numba missing or broken) is left for the
run itself to meet and report.
"""

from __future__ import annotations


def set_up() -> None:
    """numba's import and its registries filled (see the module); nothing if numba cannot be used."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.registry import cpu_target

        with global_compiler_lock:
            cpu_target.target_context.refresh()  # (refreshes the typing context too)
    except Exception:  # numba missing or broken: the run reports it when it needs numba
        return
