"""A command's side of the resident process (see the package): hand the run over, or run here.

``hand_over`` is asked before click or numpy is imported. It connects to the resident process of
this identity, sends the request (``request``) with the three standard descriptors, passes on
every stop signal to the copy that runs the command, and returns the copy's exit status. When
there is no resident process, it starts one for the next command and says "run here" (None).
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import marshal
import os
import resource
import signal
import socket
import sys
import time

from dtcli.resident import HEADER, LIMITS, REPLY, address, identity, wanted
from dtcli.stops import STOPS

# A resident process that ended without serving (no socket could be made, say) left its lock file: for
# this long after it was last written, commands start no other.
RETRY_SECONDS = 60.0
# The signals passed on to the copy's process group (Ctrl-Z and fg are passed on by `wait` too).
PASSED = (*STOPS, signal.SIGQUIT)


def hand_over(argv: list[str]) -> int | None:
    """The exit status of the command ``argv`` run by the resident process, or None when it is to run
    in this process: turned off, no usable socket folder, no resident process yet (one is started
    for the next command), or the resident process stood down (its files changed)."""
    environ = dict(os.environ)
    if not wanted(environ):
        return None
    place = address(environ)
    if place is None:
        return None
    socket_path, lock_path = place
    try:
        payload = request(argv, environ)
    except (OSError, ValueError):  # no working directory, or a value marshal cannot take
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(socket_path)
        pid = send(conn, payload)
    except OSError:
        pid = None
    if pid is None:
        conn.close()
        start(environ, lock_path)
        return None
    return wait(conn, pid)


def request(argv: list[str], environ: dict[str, str]) -> bytes:
    """The run, as the resident process reads it: who asks (``identity``), the argument list, the
    working directory, the environment, the umask, the stop signals this process ignores, its
    resource limits (``ulimit``: ``LIMITS``) and its niceness."""
    mask = os.umask(0)
    os.umask(mask)
    ignored = [int(signum) for signum in STOPS if signal.getsignal(signum) is signal.SIG_IGN]
    bounds = [(int(which), *resource.getrlimit(which)) for which in LIMITS]
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    body = marshal.dumps((identity(environ), list(argv), os.getcwd(), environ, mask, ignored, bounds, nice))
    return len(body).to_bytes(HEADER, "big") + body


def send(conn: socket.socket, payload: bytes) -> int | None:
    """Send the request with descriptors 0, 1 and 2; the copy's process id, or None when the resident
    process closed the connection instead (it stood down, or the request was not its own)."""
    fds = array.array("i", (0, 1, 2))
    sent = conn.sendmsg([payload], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
    conn.sendall(payload[sent:])
    reply = receive(conn)
    if reply is None or reply[:1] != b"P":
        return None
    return int.from_bytes(reply[1:], "big")


def receive(conn: socket.socket) -> bytes | None:
    """One reply (``REPLY`` bytes), or None when the connection ends first."""
    data = b""
    while len(data) < REPLY:
        chunk = conn.recv(REPLY - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def wait(conn: socket.socket, pid: int) -> int:
    """Pass stop signals on to the copy's process group until its status comes; that status as an
    exit status (a copy killed by a signal: this process kills itself with the same signal)."""

    def pass_on(signum, frame) -> None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signum)

    def pause(signum, frame) -> None:  # Ctrl-Z: stop the copy, then this process
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGSTOP)
        os.kill(os.getpid(), signal.SIGSTOP)

    def resume(signum, frame) -> None:
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGCONT)

    for signum in PASSED:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, pass_on)
    signal.signal(signal.SIGTSTP, pause)
    signal.signal(signal.SIGCONT, resume)
    try:
        reply = receive(conn)
    except OSError:
        reply = None
    if reply is None or reply[:1] != b"S":
        with contextlib.suppress(OSError):
            os.write(
                2,
                b"Error: the resident dtree process ended before the command did; run it again, "
                b"or set DTREE_RESIDENT=0 to run each command on its own\n",
            )
        return 1
    code = int.from_bytes(reply[1:], "big", signed=True)
    if code < 0:  # killed by signal -code: end the same way
        for signum in PASSED:
            signal.signal(signum, signal.SIG_DFL)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(-code, signal.SIG_DFL)
            os.kill(os.getpid(), -code)
        return 128 - code
    return code


def start(environ: dict[str, str], lock_path: str) -> None:
    """Start a resident process for the next command, unless one is starting (it holds the lock) or one
    failed lately (``RETRY_SECONDS``): a child in its own session with no descriptor of this process
    but the null device, in ``/``."""
    try:
        lock = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        written = os.fstat(lock)
    except OSError:
        os.close(lock)
        return  # one is starting, or serving
    os.close(lock)  # (closing releases it: the new process takes it)
    if written.st_size and time.time() - written.st_mtime < RETRY_SECONDS:
        return  # one started lately and ended without a socket (it removes its lock file when it ends well)
    safe = ["-P"] if sys.version_info >= (3, 11) else []  # (not the working directory on sys.path)
    command = [sys.executable, *safe, "-m", "dtcli.resident.server", str(os.getpid())]
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        return
    try:  # the child: never returns
        os.setsid()
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(3, 1 << 20)
        os.chdir("/")
        os.execve(command[0], command, environ)
    finally:
        os._exit(127)
