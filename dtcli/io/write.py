"""Write outputs atomically: a temporary file beside the target, then a rename.

An interrupted or failed run never leaves a half-written file, and an
existing file is replaced only once the new content is complete.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from dtcli.errors import DataError


def write_text(path: str, text: str, stdout=None) -> None:
    """Write ``text`` to ``path`` atomically, or to ``stdout`` (the console's stream) when ``path`` is ``-``."""
    if path == "-":
        stdout.write(text)
        stdout.flush()
        return
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temporary file, then rename)."""
    with atomic(path, "wb") as handle:
        handle.write(data)


@contextlib.contextmanager
def atomic(path: str, mode: str = "w"):
    """A handle on a temporary file beside ``path`` that becomes ``path`` when the block ends
    without an error (and is removed when it does not). Text is UTF-8. The file gets the mode
    of the file it replaces, or the usual one for a new file (0666 less the umask)."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise DataError(f"{path}: cannot write: directory {str(directory)!r} does not exist")
    if target.is_dir():
        raise DataError(f"{path}: is a directory; give a file name")
    try:
        fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    try:
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as handle:
            yield handle
        os.replace(temp, target)
    except BaseException as exc:
        Path(temp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise DataError(f"{path}: cannot write: {exc.strerror}") from None
        raise


def _mode_for(target: Path) -> int:
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask
