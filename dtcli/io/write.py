"""Write outputs atomically: a temporary file beside the target, then a rename.

An interrupted or failed run never leaves a half-written file, and an
existing file is replaced only once the new content is complete. Within a
run (``begin``, as every command starts) the renames wait for the run's
last output or its success: a run that fails puts no file in place, and
every temporary file it made (registered before it exists) is removed.
Devices, named pipes and sockets are written directly (renaming over
``/dev/null`` would replace the device with a regular file), and so is a
standard stream named as a file (``/dev/stdout``: the descriptor itself).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import sys

from dtcli.errors import DataError
from dtcli.io.targets import check_output, refuse_inputs, stream_fd, target_of

__all__ = [
    "atomic",
    "begin",
    "check_output",
    "commit",
    "failed",
    "refuse_inputs",
    "signals_held",
    "succeeded",
    "temporaries",
    "write_bytes",
    "write_text",
]


def write_text(path: str, text: str, stdout=None, *, last: bool = False) -> None:
    """Write ``text`` to ``path`` atomically, or to ``stdout`` (the console's stream) when ``path`` is ``-``."""
    if path == "-":
        stdout.write(text)
        stdout.flush()
        return
    write_bytes(path, text.encode("utf-8"), last=last)


def write_bytes(path: str, data: bytes, *, last: bool = False) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, then rename); ``last`` as for :func:`atomic`."""
    with atomic(path, "wb", last=last) as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic(path: str, mode: str = "w", *, last: bool = False):
    """A handle on a temporary file beside ``path`` that becomes ``path`` when the block ends
    without an error (and is removed when it does not, a stop signal included). Text is UTF-8.
    Within a run (``begin``) the file is put in place with the run's other outputs: by the
    write marked ``last`` (the run's last output), else when the run succeeds; outside one, at once.
    Once ``last`` is in place the run has finished: stop signals are ignored from then on, so a
    run never reports a stop after replacing the file.
    The file gets the mode of the file it replaces, or the usual one for a new file (0666 less the
    umask). A symbolic link is followed (the file it points to is replaced, the link stays); a
    device, named pipe or socket is written directly, never replaced; a standard stream's name
    (``/dev/stdout``, ``/dev/fd/1``, ...) writes into that descriptor of this process."""
    kind = check_output(path)
    if kind in ("stream", "special"):
        with _descriptor(path, stream_fd(path), mode) if kind == "stream" else _direct(path, mode) as handle:
            yield handle
        if last or not _RUN["open"]:
            commit(finished=last)
        return
    target = target_of(path)
    temp, fd = _create(target)
    try:
        with os.fdopen(fd, mode, **_text(mode)) as handle:
            os.fchmod(fd, _mode_for(target))
            yield handle
    except BaseException as exc:
        _remove(temp)
        if isinstance(exc, OSError):
            raise DataError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise
    _RUN["ready"].append((temp, target))
    if last or not _RUN["open"]:
        commit(finished=last)


# The outputs of the run under way: whether one is (``begin``), the temporary files that may
# exist (removed if the run fails), and the complete ones waiting to be put in place, in order.
_RUN: dict = {"open": False, "temps": [], "ready": []}
TEMP_TAIL = ".12345678.tmp"  # what follows a temporary file's stem: a dot, 8 random hex digits, .tmp


def begin() -> None:
    """A run starts (``dtcli.cli.guard``): its files are put in place at its ``last`` write or when it
    has ``succeeded``; if it has ``failed``, its temporary files are removed and nothing is put in place."""
    _RUN.update(open=True, temps=[], ready=[])


def succeeded() -> None:
    """The run has succeeded: its files still waiting are put in place (then it has finished)."""
    _RUN["open"] = False
    if _RUN["ready"]:
        commit(finished=True)


def temporaries() -> list[str]:
    """The temporary files of the run under way (named before they exist): what its failure removes."""
    return list(_RUN["temps"])


def failed() -> None:
    """The run has failed: every temporary file it made is removed, nothing is put in place."""
    _RUN["open"] = False
    with signals_held():
        for temp in list(_RUN["temps"]):
            _remove(temp)
        _RUN["temps"].clear()
        _RUN["ready"].clear()


def commit(*, finished: bool = False) -> None:
    """Put every complete file in place (rename), in the order written; with ``finished`` the run
    has finished: stop signals from now on are dropped."""
    with signals_held():
        try:
            while _RUN["ready"]:
                temp, target = _RUN["ready"][0]
                os.replace(temp, target)
                _RUN["ready"].pop(0)
                _RUN["temps"].remove(temp)
        except OSError as exc:
            target = _RUN["ready"][0][1]
            failed()
            raise DataError(f"{target}: cannot write: {exc.strerror or exc}") from None
        if finished:
            _stop_listening()


def _create(target: str) -> tuple[str, int]:
    """(name, descriptor) of a new temporary file beside ``target``: ``.STEM.XXXXXXXX.tmp``, STEM the
    target's name cut so the whole fits the file system's name limit. The name is registered before
    the file exists, stop signals held, so whatever ends the run removes it."""
    directory, name = os.path.split(target)
    directory = directory or "."
    try:
        limit = os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    stem = os.fsencode(name)[: max(1, limit - 1 - len(TEMP_TAIL))]
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temp = os.path.join(directory, os.fsdecode(b"." + stem + b"." + os.urandom(4).hex().encode() + b".tmp"))
        with signals_held():
            _RUN["temps"].append(temp)
            try:
                return temp, os.open(temp, flags, 0o600)
            except FileExistsError:
                _RUN["temps"].remove(temp)
            except OSError as exc:
                _RUN["temps"].remove(temp)
                raise DataError(f"{target}: cannot write: {exc.strerror}") from None
    raise DataError(f"{target}: cannot write: no free temporary file name beside it")


def _remove(temp: str) -> None:
    with signals_held():
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        if temp in _RUN["temps"]:
            _RUN["temps"].remove(temp)


@contextlib.contextmanager
def _descriptor(path: str, fd: int, mode: str):
    """Write into this process's descriptor ``fd`` (``path`` names it): whatever it is (a file, even
    one deleted, a pipe, a terminal), it is written where it points, after what the process's own
    streams hold (flushed first)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    try:
        dup = os.dup(fd)
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(dup, mode, **_text(mode)) as handle:
            yield handle
    except BrokenPipeError:
        if fd == 1:
            raise  # standard output's reader has gone: the run ends quietly (dtcli.cli)
        raise DataError(f"{path}: cannot write: the pipe's reader has gone") from None
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _direct(path: str, mode: str):
    """Write straight into a device, named pipe or socket path (no temporary file, no rename)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise DataError(f"{path}: a named pipe with no reader; start the reader first") from None
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    os.set_blocking(fd, True)
    try:
        with os.fdopen(fd, mode, **_text(mode)) as handle:
            yield handle
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror or exc}") from None


def _text(mode: str) -> dict:
    return {} if "b" in mode else {"encoding": "utf-8", "newline": ""}


# Stop signals held back while a temporary file comes into being, is renamed or goes: how deep
# the holds are nested, the signal that arrived meanwhile, and whether the run has finished.
_HOLD = {"depth": 0, "pending": None, "finished": False}


def listen() -> None:
    """A run starts: no stop held back, not finished."""
    _HOLD.update(depth=0, pending=None, finished=False)


def stop_arrived(signum: int) -> bool:
    """Called by the stop-signal handler: True when the stop should happen now; False when it is
    held back (it happens when the hold ends) or the run has already finished (it is dropped).
    Holding in Python, not with a signal mask, works whichever thread the signal is delivered to
    (numpy's and numba's worker threads do not block it)."""
    if _HOLD["finished"]:
        return False
    if _HOLD["depth"]:
        _HOLD["pending"] = signum
        return False
    return True


@contextlib.contextmanager
def signals_held():
    """Hold stop signals back for the block: one that arrives meanwhile is raised again when the
    block ends, where the caller can clean up (or dropped, if the run finished in the block)."""
    _HOLD["depth"] += 1
    try:
        yield
    finally:
        _HOLD["depth"] -= 1
        if not _HOLD["depth"]:  # (an inner hold's end leaves a stop held for the outer one's)
            pending, _HOLD["pending"] = _HOLD["pending"], None
            if pending is not None and not _HOLD["finished"]:
                signal.raise_signal(pending)


def _stop_listening() -> None:
    """The run has finished: stop signals from now on (and one held back) are dropped."""
    _HOLD["finished"] = True


def _mode_for(target: str) -> int:
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
