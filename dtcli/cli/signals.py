"""Ctrl-C, SIGTERM and SIGHUP end a run with one line and status 128 + the signal number.

The handlers raise :class:`Interrupt`, a ``BaseException`` that neither
Click (which would print ``Aborted!`` and exit 1 for ``KeyboardInterrupt``)
nor ``except Exception`` blocks catch: it unwinds the stack, so the atomic
writer removes its temporary file and the previous output stays intact.
"""

from __future__ import annotations

import signal

from dtcli.io import write
from dtcli.stops import STOPS


class Interrupt(BaseException):
    """A stop signal arrived; ``status`` is the exit status (128 + the signal number)."""

    def __init__(self, signum: int):
        super().__init__(STOPS.get(signum, "Interrupted"))
        self.status = 128 + int(signum)


def _raise(signum, frame) -> None:
    if write.stop_arrived(signum):  # not while an output is being put in place, nor once it is
        raise Interrupt(signum)


def install() -> None:
    """Make every stop signal raise Interrupt. SIGINT and SIGTERM always do (a shell script starts
    its background jobs with SIGINT ignored, yet ``kill -INT`` should stop them); an ignored SIGHUP
    stays ignored (``nohup``)."""
    write.listen()
    for signum in STOPS:
        if signum != signal.SIGHUP or signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _raise)


def ignore() -> None:
    """Ignore further stop signals (while the run prints its last line and exits)."""
    for signum in STOPS:
        signal.signal(signum, signal.SIG_IGN)


def interrupt_within(exc: BaseException) -> BaseException | None:
    """The stop (an ``Interrupt`` or ``KeyboardInterrupt``) that ``exc`` was raised from or while
    handling, if any: Python wraps an exception raised where a class is made (``__set_name__``,
    as a stop arriving while pandas imports its dataclasses) in a RuntimeError, which must still
    end the run as the stop it is, not as an internal error. The chain is walked, not recursed."""
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, (Interrupt, KeyboardInterrupt)):
            return current
        todo.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return None


def interrupt_for(exc: BaseException) -> Interrupt:
    """The Interrupt an interrupting exception stands for (a ``KeyboardInterrupt`` raised before
    the handlers were installed is Ctrl-C)."""
    return exc if isinstance(exc, Interrupt) else Interrupt(signal.SIGINT)
