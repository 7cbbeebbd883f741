"""The one console object (``console``): stdout for data, stderr for diagnostics, rich Consoles.

Colour only on a terminal, never when ``NO_COLOR`` is set or ``--no-color``
is given; markup and highlighting are off so user data prints verbatim.
When the output is not a terminal the width is fixed (``COLUMNS``, else
120), so the text is the same on every machine.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

PIPE_WIDTH = 120
_settings = {"no_color": False}


def set_no_color(value: bool) -> None:
    """Turn colour off for every console made from now on."""
    _settings["no_color"] = bool(value)


def make_console(stderr: bool = False) -> Console:
    """A rich Console on standard output (or error), made for one use."""
    from rich.console import Console

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


class Output:
    """The one output path: data to standard output, messages to standard error.

    The streams are looked up at each call (tests swap them); rich output goes
    through a Console made for that call, as ``make_console`` makes it.
    """

    @property
    def stdout(self):
        """The raw data stream, for writers that stream large outputs."""
        return sys.stdout

    @property
    def stderr(self):
        """The raw message stream (the progress line rewrites itself there)."""
        return sys.stderr

    def data(self, text: str) -> None:
        """Write ``text`` to standard output as it is."""
        self.stdout.write(text)
        self.stdout.flush()

    def print(self, *renderables) -> None:
        """Print rich renderables (tables, trees) to standard output."""
        make_console().print(*renderables)

    def message(self, text: str) -> None:
        """A line on standard error."""
        self.stderr.write(text + "\n")
        self.stderr.flush()


console = Output()


def warn(message: str) -> None:
    """A diagnostic line on stderr: ``Warning: message``."""
    console.message(f"Warning: {message}")


def info(message: str) -> None:
    """A progress or summary line on stderr."""
    console.message(message)


def error(message: str) -> None:
    """The error line on stderr: ``Error: message``."""
    console.message(f"Error: {message}")
