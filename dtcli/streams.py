"""Closed standard streams: the null device holds their place, and a command that needs one refuses.

A process started with file descriptor 0, 1 or 2 closed (``<&-``, ``>&-``, ``2>&-``) has
``sys.stdin``, ``sys.stdout`` or ``sys.stderr`` set to None, and the next file it opens gets
that number: a model file being written would become "standard output". ``guard`` runs
first of all (``dtcli.__main__``): it opens the null device onto each closed descriptor, so
no later file can take its number, and puts in its place a stream that refuses to be read
(standard input) or written (standard output) with one ``DataError`` line, or, for standard
error, one that takes messages and drops them. A command that does not use the stream
(``train -q -o FILE`` with standard output closed, warnings with standard error closed)
runs as usual. This module imports only the standard library and ``dtcli.errors``.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys

from dtcli.errors import DataError

NAMES = {0: "standard input", 1: "standard output", 2: "standard error"}
ADVICE = {
    0: "give the data's file name instead of -, or pipe the data in",
    1: "redirect it to a file (> FILE), or to /dev/null to throw the output away",
    2: "redirect it to a file (2> FILE), or give the output a file name",
}


# The standard descriptors that were closed when the process began (``guard``).
CLOSED: set[int] = set()


def refuse_closed(fd: int) -> None:
    """Refuse (``refusal``) at once when the run is to use standard stream ``fd`` and it began closed:
    before any work, and before any output file is written."""
    if fd in CLOSED:
        raise refusal(fd)


def closed_descriptors() -> list[int]:
    """The standard descriptors (0, 1, 2) that are not open."""
    closed = []
    for fd in NAMES:
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
    return closed


def guard() -> list[int]:
    """Put the null device on each closed standard descriptor and a stand-in in ``sys`` for its stream
    (see the module); the descriptors that were closed."""
    closed = closed_descriptors()
    CLOSED.update(closed)
    if not closed:
        return closed
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:  # no null device: nothing can hold the place (the streams still refuse)
        null = None
    if null is not None:
        for fd in closed:
            if fd != null:
                os.dup2(null, fd)
            os.set_inheritable(fd, True)  # a worker process inherits the place-holders too
        if null not in closed:
            os.close(null)
    for fd in closed:
        if fd == 2:
            sys.stderr = Discard()
        else:
            setattr(sys, ("stdin", "stdout")[fd], Closed(fd))
    return closed


def refusal(fd: int) -> DataError:
    """The error for using the closed standard stream ``fd``."""
    return DataError(f"{NAMES[fd]} is closed; {ADVICE[fd]}")


class ClosedBytes(io.RawIOBase):
    """The binary side of a closed standard stream: every read or write refuses (``refusal``)."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd = fd

    def readable(self) -> bool:
        return self.fd == 0

    def writable(self) -> bool:
        return self.fd == 1

    def readinto(self, buffer) -> int:
        raise refusal(self.fd)

    def write(self, data) -> int:
        raise refusal(self.fd)

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False

    def close(self) -> None:  # a standard stream is never closed by dtree
        pass


class Closed(io.TextIOBase):
    """Standard input or output as it stands when the process began with it closed: reading or writing
    refuses with one ``DataError`` line; flushing (there is nothing to flush) does nothing."""

    def __init__(self, fd: int):
        super().__init__()
        self.fd = fd
        self.buffer = ClosedBytes(fd)

    @property
    def encoding(self) -> str:
        return "utf-8"

    @property
    def errors(self) -> str:
        return "strict"

    def readable(self) -> bool:
        return self.fd == 0

    def writable(self) -> bool:
        return self.fd == 1

    def read(self, size: int | None = -1) -> str:
        raise refusal(self.fd)

    def readline(self, size: int | None = -1) -> str:
        raise refusal(self.fd)

    def write(self, text: str) -> int:
        raise refusal(self.fd)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return self.fd

    def isatty(self) -> bool:
        return False

    def close(self) -> None:  # a standard stream is never closed by dtree
        pass


class Discard(io.TextIOBase):
    """Standard error as it stands when the process began with it closed: messages go nowhere (there
    is nowhere to say anything), and the run goes on."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        return len(text)

    def fileno(self) -> int:
        return 2

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        pass


def use_utf8() -> None:
    """Standard output and error write UTF-8, as every file dtree writes, whatever the locale
    (``LANG``, ``LC_ALL``) or ``PYTHONIOENCODING`` says; a character that cannot be written (a
    file name's stray byte) prints as a backslash escape."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError, LookupError):
            stream.reconfigure(encoding="utf-8", errors="backslashreplace")
