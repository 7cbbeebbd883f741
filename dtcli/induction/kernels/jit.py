"""The decorator of every kernel: numba's ``njit`` (cached, without the GIL), compiled once per argument types.

numba compiles a function called from compiled code for the exact types of the call, and a
constant argument has a type of its own: ``f(x, 0)``, ``f(x, 1)`` and ``f(x, n)`` were three
compilations of ``f`` (``Literal[int](0)``, ``Literal[int](1)``, ``int64``), each linked and
optimised again into every caller. ``kernel`` compiles a call for the arguments' plain types
(``int64``, ``bool``) and passes the constants converted, so each kernel compiles once per
signature: measured, a third of the functions the CART builder compiled were such duplicates.
The machine code computes the same (the constants are still propagated where a callee is inlined).
"""

from __future__ import annotations

from numba import njit
from numba.core import errors, types


def kernel(function=None, *, inline: str = "never"):
    """``@kernel`` or ``@kernel(inline="always")``: ``njit(cache=True, nogil=True)`` whose calls from
    other kernels compile for plain argument types (constants' literal types removed)."""

    def make(f):
        dispatcher = njit(cache=True, nogil=True, inline=inline)(f)
        dispatcher.get_call_template = _plain(dispatcher.get_call_template)
        return dispatcher

    return make(function) if function is not None else make


def _plain(get_call_template):
    """``get_call_template`` for the arguments' types without literal values (as given, should a
    kernel need a constant to compile, e.g. to index a tuple)."""

    def plain(args, kws):
        unliteral = tuple(types.unliteral(a) for a in args), {k: types.unliteral(v) for k, v in kws.items()}
        if unliteral == (tuple(args), kws):
            return get_call_template(args, kws)
        try:
            return get_call_template(*unliteral)
        except errors.TypingError:
            return get_call_template(args, kws)

    return plain
