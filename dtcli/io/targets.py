"""Where an output goes, checked before any work: never onto an input, a directory or a missing directory.

An output is compared with every file the command reads by device and inode
(``os.stat`` follows symbolic links; a hard link is the same inode): a file,
every file of a directory of parts and the directory itself, the files a glob
matches, and standard input (``-``) when it is redirected from a file. The
names of the standard streams (``/dev/stdout``, ``/dev/fd/1``,
``/proc/self/fd/1``, ``/dev/stderr``, a symbolic link to one of them) name the
process's file descriptor, which is written directly (``stream_fd``): never a
path made from the link, which for a deleted file names no file at all.
"""

from __future__ import annotations

import os
import re
import stat

from dtcli.errors import DataError

# The names of a descriptor of this process: /dev/fd/N, /proc/self/fd/N, /proc/<this process>/fd/N.
FD_NAME = re.compile(r"/(?:dev/fd|proc/self/fd|proc/(\d+)/fd)/(\d+)")
STREAM_NAMES = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
LINK_HOPS = 40  # symbolic links followed at most (as the kernel's own limit)


def stream_fd(path: str) -> int | None:
    """The file descriptor ``path`` names (``-``: standard output, 1), or None for any other path.
    A symbolic link is followed one link at a time, so that a link to ``/dev/stdout`` is the
    descriptor too (``os.path.realpath`` would name the file behind it instead)."""
    if path == "-":
        return 1
    for _ in range(LINK_HOPS):
        if path in STREAM_NAMES:
            return STREAM_NAMES[path]
        named = FD_NAME.fullmatch(path)
        if named and (named.group(1) is None or int(named.group(1)) == os.getpid()):
            return int(named.group(2))
        if not path.startswith("/dev/") and not os.path.islink(path):
            return None
        try:
            link = os.readlink(path)
        except OSError:
            return None
        path = os.path.normpath(os.path.join(os.path.dirname(path), link))
    return None


def target_of(path: str) -> str:
    """The file a write to ``path`` replaces: the one a symbolic link points to, else ``path``."""
    return os.path.realpath(path) if os.path.islink(path) else path


def output_kind(path: str) -> str:
    """What ``path`` is as an output: stream (a descriptor of this process), new, file, directory,
    or special (a device, named pipe or socket); DataError when it cannot be looked at."""
    if stream_fd(path) is not None:
        return "stream"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "new"
    except OSError as exc:
        raise DataError(f"{path}: cannot write: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        return "directory"
    return "file" if stat.S_ISREG(mode) else "special"


def check_output(path: str) -> str:
    """Refuse an output path no file can be written to (a directory, a name ending in ``/``, a file
    in a directory that does not exist) before any work is done; else what it is (``output_kind``)."""
    if stream_fd(path) is None and (path.endswith("/") or os.path.basename(path) in (".", "..")):
        if not os.path.isdir(path):  # (pathlib would drop the /: the file written would be another)
            raise DataError(f"{path}: names a directory, not a file; give a file name (without the trailing /)")
    kind = output_kind(path)
    if kind == "directory":
        raise DataError(f"{path}: is a directory; give a file name")
    if kind == "stream":
        return kind
    if kind != "special":
        directory = os.path.dirname(target_of(path)) or "."
        if not os.path.isdir(directory):
            raise DataError(f"{path}: cannot write: directory {directory!r} does not exist")
    return kind


def refuse_inputs(path: str, flag: str, inputs: dict[str, str], *, folder: bool = False) -> None:
    """Refuse an output ``path`` (given as ``flag``) that is one of ``inputs``' files (option or
    argument name -> path; see the module's contract): writing it would destroy the input. With
    ``folder`` (an output directory), the directory itself is compared too."""
    if stream_fd(path) is not None:
        return  # a descriptor is written where it points; no file is replaced
    try:
        out = os.stat(path)
    except OSError:
        return  # no such file yet (or unreadable): nothing of the input's to destroy
    if not (stat.S_ISREG(out.st_mode) or (folder and stat.S_ISDIR(out.st_mode))):
        return
    for name, source in inputs.items():
        for what, seen in input_files(name, source):
            if os.path.samestat(out, seen):
                raise DataError(
                    f"{path}: {flag} would overwrite {what}, an input of this command; write the output elsewhere"
                )


def input_files(name: str, source: str):
    """(how to name it, os.stat_result) of each file the input ``name`` (at ``source``) stands for."""
    if source == "-":
        yield from _stat(f"{name} (standard input)", 0)
        return
    try:
        seen = os.stat(source)
    except OSError:
        seen = None
    if seen is None:
        import glob

        if glob.has_magic(source):
            for match in sorted(glob.glob(source)):
                yield from _stat(f"a file of {name} ({source})", match)
        return
    yield name, seen
    if stat.S_ISDIR(seen.st_mode):
        try:
            entries = list(os.scandir(source))
        except OSError:
            return
        for entry in entries:
            yield from _stat(f"a part of {name} ({source})", entry.path)


def _stat(what: str, path: str | int):
    """(what, the file's status) of a path or descriptor, or nothing if it cannot be looked at."""
    try:
        seen = os.stat(path)
    except OSError:
        return
    yield what, seen


def same_output(first: str, second: str) -> bool:
    """Whether two output paths name the same file (an existing one, or the same new name); the
    standard streams and devices are never the same file in this sense (each write goes through)."""
    kinds = output_kind(first), output_kind(second)
    if "stream" in kinds or "special" in kinds or "directory" in kinds:
        return False
    if kinds == ("file", "file"):
        return os.path.samestat(os.stat(first), os.stat(second))
    return os.path.realpath(first) == os.path.realpath(second)
