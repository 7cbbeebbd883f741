"""The single place that makes rich Consoles: stdout for data, stderr for diagnostics.

Colour only on a terminal, never when ``NO_COLOR`` is set or ``--no-color``
is given; markup and highlighting are off so user data prints verbatim.
When the output is not a terminal the width is fixed (``COLUMNS``, else
120), so the text is the same on every machine.
"""

from __future__ import annotations

import os
import sys

from rich.console import Console

PIPE_WIDTH = 120
_settings = {"no_color": False}


def set_no_color(value: bool) -> None:
    """Turn colour off for every console made from now on."""
    _settings["no_color"] = bool(value)


def make_console(stderr: bool = False) -> Console:
    stream = sys.stderr if stderr else sys.stdout
    terminal = stream.isatty()
    width = None if terminal else int(os.environ.get("COLUMNS") or PIPE_WIDTH)
    return Console(
        file=stream,
        markup=False,
        highlight=False,
        emoji=False,
        width=width,
        no_color=_settings["no_color"] or "NO_COLOR" in os.environ,
        soft_wrap=False,
    )


def warn(message: str) -> None:
    """A diagnostic line on stderr: ``Warning: message``."""
    print(f"Warning: {message}", file=sys.stderr)


def info(message: str) -> None:
    """A progress or summary line on stderr."""
    print(message, file=sys.stderr)
