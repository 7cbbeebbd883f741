"""The one console object (``console``): stdout for data, stderr for diagnostics, rich Consoles.

Colour only on a terminal, never when ``NO_COLOR`` is set (not empty) or ``--no-color``
is given; markup and highlighting are off so user data prints verbatim.
When the output is not a terminal the width is fixed (``COLUMNS``, else
120), so the text is the same on every machine; there, strings and box
tables that fit are written without importing rich (``render.boxtable``).
A ``COLUMNS`` or ``LINES`` that is not a whole number above 0 is ignored, one out of
bounds is brought within them (``MIN_WIDTH``, ``MAX_WIDTH``); rich is always given the
width and height, so it never reads them itself.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from typing import TYPE_CHECKING

from dtcli.errors import DataError
from dtcli.render import boxtable

if TYPE_CHECKING:
    from rich.console import Console

PIPE_WIDTH = 120
# The widths COLUMNS may set: a narrower one is taken as MIN_WIDTH, a wider one as MAX_WIDTH.
MIN_WIDTH, MAX_WIDTH = 20, 10_000
MIN_LINES, MAX_LINES = 5, 10_000  # the same for LINES (rich's height: how much a live display may draw)
_settings = {"no_color": False}


def set_no_color(value: bool) -> None:
    """Turn colour off for every console made from now on."""
    _settings["no_color"] = bool(value)


def colour_allowed() -> bool:
    """False when ``--no-color`` was given or ``NO_COLOR`` is set to anything but the empty string
    (no-color.org: an empty ``NO_COLOR`` is as if it were not set)."""
    return not (_settings["no_color"] or os.environ.get("NO_COLOR", "") != "")


def setting(name: str, low: int, high: int) -> int | None:
    """The environment variable ``name`` as a count within ``low`` to ``high`` (one out of bounds is
    brought within them), or None when it is not set, empty, or not a whole number above 0
    (``abc``, ``-5``, ``0``, ``1.5``): such a value is ignored, as other programs ignore it."""
    text = os.environ.get(name, "").strip()
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text) if len(text) < 10 else high  # (a thousand digits: still a number, and huge)
    return None if value == 0 else min(max(value, low), high)


def screen(stream) -> tuple[int, int]:
    """The width and height of the terminal ``stream`` writes to: ``COLUMNS`` and ``LINES`` (when
    usable, see ``setting``), else the terminal's own size, else 80 by 25."""
    try:
        size = os.get_terminal_size(stream.fileno())
        width, height = size.columns, size.lines
    except (AttributeError, ValueError, OSError):
        width = height = 0
    return (
        setting("COLUMNS", MIN_WIDTH, MAX_WIDTH) or width or 80,
        setting("LINES", MIN_LINES, MAX_LINES) or height or 25,
    )


def preload() -> None:
    """Import the parts of rich a console uses (for the resident process, ``dtcli/resident``: the copies
    it forks start with them)."""
    import rich.console
    import rich.table
    import rich.text  # noqa: F401


def make_console(stderr: bool = False, file=None) -> Console:
    """A rich Console on standard output (or error), made for one use; with ``file``, a Console
    that writes there but renders as it would for that stream (colour, width)."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    terminal = stream.isatty()
    width, height = screen(stream) if terminal else (pipe_width(), setting("LINES", MIN_LINES, MAX_LINES) or 25)
    return Console(
        file=file or stream,
        force_terminal=terminal,  # (FORCE_COLOR and TTY_COMPATIBLE are not asked: colour only on a terminal)
        markup=False,
        highlight=False,
        emoji=False,
        width=width,
        height=height,
        no_color=not colour_allowed(),
        color_system="auto" if colour_allowed() else None,  # (no_color alone keeps bold and italics)
        soft_wrap=False,
    )


def rendered(*parts) -> str:
    """The text ``console.print`` writes for ``parts`` (strings, ``BoxTable``s) on a pipe, one after
    the other: plain, at the pipe's width (for output written to a file, ``-o FILE``)."""
    out = []
    for part in parts:
        text = boxtable.plain((part,), pipe_width())
        if text is None:
            from rich.console import Console

            buffer = io.StringIO()
            Console(
                file=buffer,
                force_terminal=False,
                color_system=None,
                markup=False,
                highlight=False,
                emoji=False,
                width=pipe_width(),
                height=25,
                soft_wrap=False,
            ).print(boxtable.to_rich(part))
            text = buffer.getvalue()
        out.append(text)
    return "".join(out)


def pipe_width() -> int:
    """The width of output that goes to a file or pipe: ``COLUMNS`` (when usable, see ``setting``), else 120."""
    return setting("COLUMNS", MIN_WIDTH, MAX_WIDTH) or PIPE_WIDTH


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
        with writing_stdout():
            self.write(text)
            self.stdout.flush()

    def write(self, text: str) -> None:
        """Write ``text`` to standard output whole. A file object's ``write`` may write only part
        of a large text and say nothing (a pipe whose reader has gone); this writes the rest
        until it is all out or the system says why not."""
        stream = self.stdout
        raw = getattr(stream, "buffer", None)
        if raw is None or len(text) < 4096:
            stream.write(text)
            return
        stream.flush()
        data = memoryview(text.encode(stream.encoding or "utf-8", stream.errors or "strict"))
        while data:
            done = raw.write(data[: 1 << 20])
            data = data[done if done is not None else 0 :]
        raw.flush()

    def print(self, *renderables) -> None:
        """Print rich renderables (tables, trees), strings and ``BoxTable``s to standard output. Not on
        a terminal, plain text and box tables that fit are written as rich would write them, without
        importing rich (a tenth of a small run's start-up)."""
        text = None if self.stdout.isatty() else boxtable.plain(renderables, pipe_width())
        if text is None:
            buffer = io.StringIO()
            make_console(file=buffer).print(*map(boxtable.to_rich, renderables))
            text = buffer.getvalue()
        self.data(text)

    def message(self, text: str) -> None:
        """A line on standard error (if standard error cannot take it, there is nowhere to say so)."""
        with contextlib.suppress(OSError):
            self.stderr.write(text + "\n")
            self.stderr.flush()


console = Output()


# The exit status of a run whose standard output was closed by its reader (``dtree ... | head``):
# 128 + SIGPIPE (13), as a Unix filter killed by SIGPIPE reports it.
CLOSED_PIPE_STATUS = 141


class ClosedPipe(BaseException):
    """Standard output's reader has gone (``| head``): the run ends quietly, status CLOSED_PIPE_STATUS.
    A BaseException, so that no ``except Exception`` turns it into an error line."""


def stdout_closed() -> bool:
    """True when standard output is a pipe whose reader has gone (a BrokenPipeError from elsewhere,
    such as a worker's pipe, is not this)."""
    try:
        import select

        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def end_quietly() -> None:
    """Standard output's reader has gone: send it to the null device (nothing more fails, not the
    final flush) and raise ClosedPipe."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    raise ClosedPipe


@contextlib.contextmanager
def writing_stdout():
    """Turn a failed write to standard output (a full disk) into one DataError, and a closed pipe
    (its reader has gone) into ClosedPipe; standard output then goes to the null device, so nothing
    more fails (not the final flush either)."""
    try:
        yield
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            end_quietly()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, sys.stdout.fileno())
            os.close(null)
        raise DataError(f"standard output: cannot write: {exc.strerror or exc}") from None


def warn(message: str) -> None:
    """A diagnostic line on stderr: ``Warning: message`` (kept instead while messages are held)."""
    if _quiet["held"] is not None:
        _quiet["held"].append(message)
        return
    console.message(f"Warning: {message}")


def info(message: str) -> None:
    """A progress or summary line on stderr (left out when standard error carries a JSON document)."""
    if not _quiet["json"]:
        console.message(message)


def notice(message: str) -> None:
    """A line on stderr that says what is happening (kept with the warnings while messages are held)."""
    if _quiet["held"] is not None:
        _quiet["held"].append(message)
        return
    console.message(message)


# json: standard error carries one JSON document (no summary lines); held: the warnings kept for it
_quiet: dict = {"json": False, "held": None}


def hold_messages() -> None:
    """From now on keep warnings instead of writing them, and leave out summary lines: standard
    error is to carry one JSON document (``-f json`` with a trace or a cross-validation table),
    whose ``warnings`` list takes them (``take_warnings``)."""
    _quiet.update(json=True, held=[])


def take_warnings() -> list[str]:
    """The warnings held so far, for the document; later ones are written as lines (summary
    lines stay out)."""
    kept = _quiet["held"] or []
    _quiet["held"] = None
    return kept


def release_messages() -> None:
    """Write the warnings held so far as lines, and hold nothing more (a run that fails says all)."""
    kept = take_warnings()
    _quiet["json"] = False
    for message in kept:
        warn(message)


def error(message: str) -> None:
    """The error line on stderr: ``Error: message``."""
    console.message(f"Error: {message}")
