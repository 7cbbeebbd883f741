"""The resident process: a dtree that has imported its modules once and forks a copy for each command.

Python, numpy, click, rich and dtree's own modules take about 0.2 s to import on a small machine,
which is the whole of a run on a classroom table. The first ``dtree`` command starts, beside its
own run, a resident process (``server``) that imports them and then waits on a Unix socket.
Later commands (``client``) connect, hand it their argument list, working directory,
environment, umask and their three standard descriptors, and a forked copy of the resident
process runs the command on those descriptors, exactly as the command would have run itself;
its exit status comes back to the command, which exits with it. Stop signals sent to the command
are passed on to the copy.

A resident process serves only commands that would have run the same way in it: the same Python,
the same dtree files (any change to them, or to the installed packages, and it stands down), and
the same environment variables of those read when Python and its modules start (``KEYED``). It
listens in a directory only its user can open, and hears no other user. It ends after
``IDLE_SECONDS`` without a command. ``DTREE_RESIDENT=0`` in the environment turns it off: each
command then runs on its own, and none is started.

This package imports only the standard library: ``client`` runs before anything else is loaded.
"""

from __future__ import annotations

import os
import resource
import stat
import sys
import zlib

# The environment variable that turns the resident process off ("0", "no", "off", "false").
SWITCH = "DTREE_RESIDENT"
OFF = ("0", "no", "off", "false")
# A resident process with no command for this long ends.
IDLE_SECONDS = 900.0
# Environment variables read when Python, numpy, numba or dtree's modules start (or that change what
# they find): a resident process serves only commands that set them as it did. dtree's own (DTREE_ENGINE,
# NO_COLOR, COLUMNS...) are read as each command runs, in the forked copy.
KEYED_PREFIXES = ("PYTHON", "NUMBA_", "OPENBLAS", "OMP_", "MKL_", "NPY_", "LC_")
KEYED_NAMES = ("LANG", "LANGUAGE", "TZ", "HOME", "XDG_CACHE_HOME", "VIRTUAL_ENV")
# The resource limits (``ulimit``) a copy takes from its command: it lowers its own to them, and a
# command whose limits are above the resident process's hard limits runs on its own.
LIMITS = tuple(
    getattr(resource, name)
    for name in ("RLIMIT_CPU", "RLIMIT_FSIZE", "RLIMIT_DATA", "RLIMIT_STACK", "RLIMIT_CORE", "RLIMIT_RSS",
                 "RLIMIT_NPROC", "RLIMIT_NOFILE", "RLIMIT_MEMLOCK", "RLIMIT_AS", "RLIMIT_LOCKS", "RLIMIT_MSGQUEUE")
    if hasattr(resource, name)
)  # fmt: skip
# The namespaces a command and the process that runs it share (``confinement``).
NAMESPACES = ("mnt", "pid", "net", "user", "ipc", "uts", "cgroup")
# The longest path a Unix socket may have (bytes; Linux takes 107, other systems 103).
LONGEST = 103
# What a command sends first: the 4-byte length of its request. The replies: b"P" and the copy's
# process id, then b"S" and its wait status, each 9 bytes.
HEADER = 4
REPLY = 9


def wanted(environ: dict[str, str]) -> bool:
    """Whether the environment leaves the resident process on (on Linux: it asks the kernel who
    connects, and reads namespaces and control groups from /proc)."""
    return sys.platform == "linux" and environ.get(SWITCH, "").strip().lower() not in OFF


def keyed(environ: dict[str, str]) -> list[tuple[str, str]]:
    """The environment variables a resident process must share with a command it serves, sorted."""
    return sorted(
        (name, value) for name, value in environ.items() if name.startswith(KEYED_PREFIXES) or name in KEYED_NAMES
    )


def home() -> str:
    """The folder of dtree's package (``dtcli``), as it is imported here."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def identity(environ: dict[str, str]) -> tuple:
    """What a resident process and a command it serves have in common: the Python, where dtree is
    installed, the keyed environment, and the confinement (``confinement``)."""
    return (sys.prefix, os.path.realpath(sys.executable), sys.version, home(), keyed(environ), confinement())


def confinement() -> tuple:
    """Who runs, and in which box: the user and group ids and groups, the namespaces and the control
    groups (a sandbox's, a container's, a grading script's memory limits), where Linux tells them."""
    spaces = []
    for name in NAMESPACES:
        try:
            spaces.append(os.readlink(f"/proc/self/ns/{name}"))
        except OSError:
            spaces.append("")
    try:
        with open("/proc/self/cgroup", "rb") as file:
            groups = file.read()
    except OSError:
        groups = b""
    ids = (os.getuid(), os.geteuid(), os.getgid(), os.getegid(), tuple(sorted(os.getgroups())))
    return (ids, tuple(spaces), groups)


def folder(environ: dict[str, str]) -> str | None:
    """The directory of this user's sockets, made if missing, in ``$XDG_RUNTIME_DIR`` or, when that is
    not set or too long a path for a socket's name (``LONGEST``), in ``/tmp``; None when it is not this
    user's alone (another owner, other users may enter it, or not a directory), or cannot be made."""
    base = environ.get("XDG_RUNTIME_DIR") or "/tmp"
    if len(os.fsencode(base)) > LONGEST - 40:  # (the folder's and the socket's names: 38 bytes)
        base = "/tmp"
    path = os.path.join(base, f"dtree-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return path


def address(environ: dict[str, str]) -> tuple[str, str] | None:
    """The socket and lock file of the resident process for this identity, or None (``folder``)."""
    place = folder(environ)
    if place is None:
        return None
    text = repr(identity(environ)).encode("utf-8", "surrogateescape")
    name = f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}"
    return os.path.join(place, name + ".sock"), os.path.join(place, name + ".lock")


def starting(socket_path: str) -> str:
    """The name the socket has while its process loads (no longer than the socket's own)."""
    return socket_path.removesuffix(".sock") + ".new"
