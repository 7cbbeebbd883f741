"""Notes for the user from a layer that prints nothing itself (io's CSV detection): the caller says where they go.

The command line installs the console's ``warn`` (``install``); with nothing installed (the Python
API), a note is a Python warning (``DtreeWarning``), so no note is ever lost or printed twice.
"""

from __future__ import annotations

_handler: list = [None]


def install(handler) -> None:
    """Send every later note to ``handler(message)``."""
    _handler[0] = handler


def tell(message: str) -> None:
    """One note for the user (``Warning: message`` on the command line)."""
    if _handler[0] is not None:
        _handler[0](message)
        return
    import warnings

    from dtcli.errors import DtreeWarning

    warnings.warn(message, DtreeWarning, stacklevel=3)
