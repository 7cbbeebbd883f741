"""Write outputs atomically: a temporary file beside the target, then a rename.

An interrupted or failed run never leaves a half-written file, and an
existing file is replaced only once the new content is complete. Devices,
named pipes and sockets are written directly (renaming over ``/dev/null``
would replace the device with a regular file).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
from typing import TYPE_CHECKING

from dtcli.errors import DataError

# pathlib is imported where a file is written: it and what it imports (urllib) cost every run's
# start-up (the stop-signal handlers import this module), and most runs write no file.
if TYPE_CHECKING:
    from pathlib import Path


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


def refuse_inputs(path: str, flag: str, inputs: dict[str, str]) -> None:
    """Refuse an output ``path`` (given as ``flag``) that is the same regular file as one of ``inputs``
    (option or argument name -> path): writing it would destroy the input."""
    if path == "-":
        return
    try:
        out = os.stat(path)
    except OSError:
        return  # no such file yet (or unreadable): nothing of the input's to destroy
    if not stat.S_ISREG(out.st_mode):
        return
    for name, source in inputs.items():
        if source == "-":
            continue
        try:
            same = os.path.samestat(out, os.stat(source))
        except OSError:
            continue
        if same:
            raise DataError(
                f"{path}: {flag} would overwrite {name}, an input of this command; write the output elsewhere"
            )


@contextlib.contextmanager
def atomic(path: str, mode: str = "w", *, last: bool = False):
    """A handle on a temporary file beside ``path`` that becomes ``path`` when the block ends
    without an error (and is removed when it does not, a stop signal included). Text is UTF-8.
    With ``last`` (the run's last output), the run has finished once the file is in place: stop
    signals are ignored from then on, so a run never reports a stop after replacing the file.
    The file gets the mode of the file it replaces, or the usual one for a new file (0666 less the
    umask). A symbolic link is followed (the file it points to is replaced, the link stays); a
    device, named pipe or socket is written directly, never replaced."""
    from pathlib import Path

    kind = check_output(path)
    if kind == "special":
        with _direct(path, mode) as handle:
            yield handle
        if last:
            _stop_listening()
        return
    target = _target(path)
    directory = target.parent if str(target.parent) else Path(".")
    temp = None
    try:
        with _signals_held():
            import tempfile  # here: most runs write no file, and tempfile costs a few ms of start-up

            fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, mode, **_text(mode)) as handle:
            yield handle
        with _signals_held():
            os.replace(temp, target)
            temp = None
            if last:
                _stop_listening()
    except BaseException as exc:
        if temp is not None:
            with _signals_held():
                Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise DataError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


def check_output(path: str) -> str:
    """Refuse an output path no file can be written to (a directory, or in a directory that does
    not exist) before any work is done; else what it is: new, file or special."""
    from pathlib import Path

    kind = _kind(path)
    if kind == "directory":
        raise DataError(f"{path}: is a directory; give a file name")
    if kind != "special":
        directory = _target(path).parent
        if not (directory if str(directory) else Path(".")).is_dir():
            raise DataError(f"{path}: cannot write: directory {str(directory)!r} does not exist")
    return kind


def _target(path: str) -> Path:
    """The file a write to ``path`` replaces (the one a symbolic link points to)."""
    from pathlib import Path

    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)


def _kind(path: str) -> str:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        return "directory"
    return "file" if stat.S_ISREG(mode) else "special"


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
def _signals_held():
    """Hold stop signals back for the block: one that arrives meanwhile is raised again when the
    block ends, where the caller can clean up (or dropped, if the run finished in the block)."""
    _HOLD["depth"] += 1
    try:
        yield
    finally:
        _HOLD["depth"] -= 1
        pending, _HOLD["pending"] = _HOLD["pending"], None
        if pending is not None and not _HOLD["depth"] and not _HOLD["finished"]:
            signal.raise_signal(pending)


def _stop_listening() -> None:
    """The run has finished: stop signals from now on (and one held back) are dropped."""
    _HOLD["finished"] = True


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
