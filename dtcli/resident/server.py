"""The resident process (see the package): import dtree once, then fork a copy for each command.

``python -m dtcli.resident.server``, started by ``client.start`` in its own session, in ``/``, with
the null device on its standard descriptors and the environment of the command that started it.
It takes the lock file (one resident process for each identity), imports what commands use
(``preload``: never numba, which a copy imports for itself when its engine needs it), listens on
the socket, and for each command that connects: checks that it is this user's, that it shares
this process's ``identity`` and that dtree's files have not changed (``marks``; if they have,
it stands down), forks a copy (``run_copy``) in a process group of its own, tells the command the
copy's process id, and when the copy ends sends its status. A command that goes away before its
copy ends has the copy's group stopped with SIGHUP. After ``IDLE_SECONDS`` with nothing to do, or
once its socket is no longer at its address, the process ends.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import gc
import importlib
import importlib.util
import marshal
import os
import pkgutil
import resource
import selectors
import signal
import socket
import struct
import sys
import time

from dtcli.resident import HEADER, IDLE_SECONDS, REPLY, address, home, identity, starting

# Not imported ahead: the compiled kernels (numba, whose threads and caches belong to the copy that
# uses them), the optional extras, and the entry points.
NOT_AHEAD = ("kernels", "sklearn", "dask", "parquet", "__main__", "resident")
# How often (seconds) an idle process checks that its socket is still at its address.
TICK = 30.0
# The installed packages whose folders' times ``marks`` keeps.
PACKAGES = ("numpy", "click", "rich", "pandas")
# The argument that starts the process again without loading the engines (``load_engines``).
NO_ENGINES = "--no-engines"
# The warm-up's jobs (``cli/warmup.JOBS``) whose trees load the engines ahead, and the kinds of growth
# (``estimates.AHEAD``) each makes ready.
AHEAD_JOBS = {
    "C4.5 with pessimistic pruning": ("c45", "prune"),
    "ID3 with numeric thresholds": ("id3",),
    "CART classification": ("cart",),
    "CART regression": ("regression",),
}
# The largest request read (the environment is most of it).
LARGEST = 1 << 22


def main() -> None:
    """Serve commands until idle (see the module); return at once when another process serves this
    identity, no socket folder is usable, or the socket cannot be made (the lock file then stays, with
    this process's id: commands start no other for ``RETRY_SECONDS``)."""
    environ = dict(os.environ)
    place = address(environ)
    if place is None:
        return
    socket_path, lock_path = place
    lock = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return
    os.ftruncate(lock, 0)
    os.write(lock, f"{os.getpid()} 0\n".encode())  # who holds it and how many commands it served
    mine, files = identity(environ), marks()  # (before loading: a file changed meanwhile is seen)
    # the socket under another name until everything is loaded: a command finds none and runs on its own
    loading = starting(socket_path)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(loading)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(loading)
        listener.listen(128)
    except OSError:
        return
    ready = False
    try:
        if len(sys.argv) > 1 and sys.argv[1].isdigit() and (os.cpu_count() or 1) == 1:
            starter(int(sys.argv[1]))
        preload()
        if "numba" in sys.modules:  # (a module loaded it: the copies could not fork from it safely)
            return
        if NO_ENGINES not in sys.argv and not load_engines():
            # a thread was left running, which a fork would not copy: start again without the engines
            os.unlink(loading)
            os.close(lock)
            os.execv(sys.executable, [*sys.orig_argv, NO_ENGINES])
        os.rename(loading, socket_path)
        inode = os.stat(socket_path).st_ino
        ready = True
    finally:
        if not ready:
            with contextlib.suppress(OSError):
                os.unlink(loading)
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    signal.signal(signal.SIGINT, lambda signum, frame: sys.exit(0))
    gc.freeze()  # what is loaded stays out of the collector: the copies share its pages
    try:
        Server(listener, mine, files, socket_path, inode, lock).serve()
    finally:
        with contextlib.suppress(OSError):
            if os.stat(socket_path).st_ino == inode:
                os.unlink(socket_path)
        with contextlib.suppress(OSError):
            os.unlink(lock_path)


def starter(pid: int) -> None:
    """On one processor: wait until the command that started this process ends (at most a minute),
    so that importing here does not slow its run."""
    deadline = time.monotonic() + 60.0
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except OSError:
            return
        time.sleep(0.05)


def preload() -> None:
    """Import the command line and every dtree module a command may load (not ``NOT_AHEAD``)."""
    importlib.import_module("dtcli.cli")
    pending = [([home()], "dtcli.")]
    while pending:
        path, prefix = pending.pop()
        for info in pkgutil.iter_modules(path, prefix):
            if any(part in NOT_AHEAD for part in info.name.split(".")):
                continue
            try:
                module = importlib.import_module(info.name)
            except Exception:  # an optional package missing: the copy reports it as a run would
                continue
            if info.ispkg:
                pending.append((module.__path__, info.name + "."))
    from dtcli.render.console import preload as load_rich

    load_rich()  # (rendered on terminals and for wide tables)


def load_engines() -> bool:
    """Grow small trees with each compiled engine whose kernels are all cached (``warmup.warm``): the
    copies then start with them loaded, and choose them by that (``estimates.AHEAD``). Nothing is
    compiled. False if this left a thread running (the copies must not be forked then)."""
    import tempfile

    from dtcli.cli.warmup import JOBS, sample_csv, warm
    from dtcli.induction import estimates

    before = threads()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sample.csv")
        with open(path, "w", encoding="utf-8") as file:
            file.write(sample_csv())
        for job in JOBS:
            if job[0] not in AHEAD_JOBS:
                continue
            try:
                done = warm(job, path, cached_only=True)
            except Exception:  # (numba unusable here: the copies grow as a run on its own would)
                done = None
            if done is not None and done[2]:
                NOT_LOADED.append(done[2])
            elif done is not None:
                estimates.AHEAD.update(AHEAD_JOBS[job[0]])
    deadline = time.monotonic() + 2.0
    while threads() > before and time.monotonic() < deadline:  # (a thread joined may still be exiting)
        time.sleep(0.01)
    return threads() <= before


# The kernel sets of each engine ``load_engines`` did not load for want of some of them in the cache.
NOT_LOADED: list[list[str]] = []


def cached_since() -> bool:
    """Whether every kernel of an engine ``load_engines`` left out for want of them is cached now (a
    run compiled them): then this process stands down, and the next command starts one that loads it."""
    if not NOT_LOADED:
        return False
    from dtcli.induction.compiling import uncached

    return any(not uncached(sets, None) for sets in NOT_LOADED)


def reachable(bounds: list, nice: int) -> bool:
    """Whether a copy can take a command's resource limits and niceness: lower its own, never raise
    them (an unprivileged process cannot)."""
    if nice < os.getpriority(os.PRIO_PROCESS, 0):
        return False
    for which, soft, hard in bounds:
        _, mine = resource.getrlimit(which)
        if not (below(soft, mine) and below(hard, mine) and below(soft, hard)):
            return False
    return True


def below(value: int, limit: int) -> bool:
    """``value`` <= ``limit``, RLIM_INFINITY above every value."""
    return limit == resource.RLIM_INFINITY or (value != resource.RLIM_INFINITY and value <= limit)


def threads() -> int:
    """The threads of this process (the operating system's count, where it gives one)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        import threading

        return threading.active_count()


def marks(folders: list[str] | None = None, packages=PACKAGES) -> list[tuple[str, int, int]]:
    """What says dtree's files and the installed packages are unchanged: each ``.py`` file under
    ``folders`` (dtree's, by default: path, modification time, size), and the modification time of the
    folder each of ``packages`` is installed in (a package installed, removed or upgraded changes it)."""
    found = []
    pending = [home()] if folders is None else list(folders)
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        pending.append(entry.path)
                elif entry.name.endswith(".py"):
                    info = entry.stat()
                    found.append((entry.path, info.st_mtime_ns, info.st_size))
    for installed in installed_in(packages):
        try:
            found.append((installed, os.stat(installed).st_mtime_ns, 0))
        except OSError:
            found.append((installed, 0, 0))
    return sorted(found)


@functools.cache
def installed_in(packages: tuple[str, ...]) -> tuple[str, ...]:
    """The folders ``packages`` are installed in (found without importing them, once a process)."""
    folders = set()
    for name in packages:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.origin:
            folders.add(os.path.dirname(os.path.dirname(spec.origin)))
    return tuple(sorted(folders))


class Server:
    """The loop: new commands on ``listener``, copies ending (SIGCHLD, through a wake-up pipe),
    commands going away before their copy ends."""

    def __init__(self, listener: socket.socket, mine: tuple, files: list, socket_path: str, inode: int, lock: int):
        self.listener = listener
        self.lock = lock
        self.served = 0
        self.mine = mine
        self.files = files  # (``marks``)
        self.socket_path = socket_path
        self.inode = inode
        self.running: dict[int, socket.socket] = {}
        self.selector = selectors.DefaultSelector()
        self.wake_read, self.wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda signum, frame: None)
        self.selector.register(listener, selectors.EVENT_READ, "new")
        self.selector.register(self.wake_read, selectors.EVENT_READ, "ended")
        self.standing = True

    def serve(self) -> None:
        last = looked = time.monotonic()
        while self.standing:
            now = time.monotonic()
            if not self.running and now - last >= IDLE_SECONDS:
                return
            if now - looked >= TICK:  # (busy or not)
                looked = now
                if not self.at_address() or cached_since():
                    self.stand_down()  # (the copies running still get their statuses)
                    break
            events = self.selector.select(TICK if self.running else min(TICK, IDLE_SECONDS - (now - last)))
            for key, _ in events:
                if key.data == "new":
                    self.accept()
                elif key.data == "ended":
                    self.reap()
                else:
                    self.gone(key.data)
            if events:
                last = time.monotonic()
        while self.running:  # stood down: the copies already started still get their statuses
            for key, _ in self.selector.select(TICK):
                if key.data == "ended":
                    self.reap()
                elif key.data != "new":
                    self.gone(key.data)

    def at_address(self) -> bool:
        """Whether this process's socket is still the one at its address."""
        try:
            return os.stat(self.socket_path).st_ino == self.inode
        except OSError:
            return False

    def accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        fds: list[int] = []
        try:
            conn.settimeout(5.0)
            uid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[1]
            if uid != os.getuid():
                raise OSError("another user")
            fds, body = self.read_request(conn)
            asked = marshal.loads(body)
            if asked[0] != self.mine or len(fds) != 3:
                raise OSError("not this identity")
            if not reachable(asked[6], asked[7]):  # (the command runs on its own)
                raise OSError("limits above this process's")
            if marks() != self.files:  # dtree or a package changed: stand down, the command runs itself
                self.stand_down()
                raise OSError("changed")
            pid = os.fork()
            if pid == 0:
                self.run_copy(conn, fds, asked)
            with contextlib.suppress(OSError):
                os.setpgid(pid, pid)
            self.running[pid] = conn
            self.served += 1
            with contextlib.suppress(OSError):  # (the count only grows: the line never gets shorter)
                os.pwrite(self.lock, f"{os.getpid()} {self.served}\n".encode(), 0)
            conn.sendall(b"P" + pid.to_bytes(REPLY - 1, "big"))
            self.selector.register(conn, selectors.EVENT_READ, pid)
        except (OSError, ValueError, EOFError, TypeError, IndexError, struct.error):
            if conn not in self.running.values():
                conn.close()
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def read_request(self, conn: socket.socket) -> tuple[list[int], bytes]:
        """The descriptors and the body of a request."""
        room = socket.CMSG_SPACE(3 * 4)
        data, ancillary, _, _ = conn.recvmsg(65536, room)
        fds: list[int] = []
        for level, kind, value in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                count = len(value) // 4
                fds.extend(struct.unpack(f"{count}i", value[: count * 4]))
        if len(data) < HEADER:
            raise OSError("short request")
        size = int.from_bytes(data[:HEADER], "big")
        if size > LARGEST:
            raise OSError("request too large")
        body = bytearray(data[HEADER:])
        while len(body) < size:
            chunk = conn.recv(size - len(body))
            if not chunk:
                raise OSError("short request")
            body += chunk
        return fds, bytes(body)

    def stand_down(self) -> None:
        """Stop taking commands: close the socket (the next command starts a new process)."""
        self.standing = False
        self.selector.unregister(self.listener)
        with contextlib.suppress(OSError):
            if os.stat(self.socket_path).st_ino == self.inode:
                os.unlink(self.socket_path)
        self.listener.close()

    def reap(self) -> None:
        with contextlib.suppress(OSError):
            while os.read(self.wake_read, 512):
                pass
        while self.running:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.running.pop(pid, None)
            if conn is None:
                continue
            code = os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError, KeyError, ValueError):
                self.selector.unregister(conn)
            with contextlib.suppress(OSError):
                conn.sendall(b"S" + code.to_bytes(REPLY - 1, "big", signed=True))
            conn.close()

    def gone(self, pid: int) -> None:
        """The command of copy ``pid`` sent more or went away: stop the copy as a hang-up would."""
        conn = self.running.get(pid)
        if conn is None:
            return
        with contextlib.suppress(OSError, KeyError, ValueError):
            self.selector.unregister(conn)
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGHUP)

    def run_copy(self, conn: socket.socket, fds: list[int], asked: tuple) -> None:
        """In the forked copy: become the command (descriptors, directory, environment, umask,
        ignored signals, arguments, standard streams) and run it; never returns."""
        status = 1
        try:
            _, argv, cwd, environ, mask, ignored, bounds, nice = asked
            os.setpgid(0, 0)
            signal.set_wakeup_fd(-1)
            for signum in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, signal.SIG_DFL)
            self.selector.close()
            for fd in (self.wake_read, self.wake_write, self.lock):  # (the lock is the server's alone)
                os.close(fd)
            self.listener.close()
            conn.close()
            for other in self.running.values():
                other.close()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            for fd in fds:
                if fd > 2:
                    os.close(fd)
            os.chdir(cwd)
            os.umask(mask)
            for which, soft, hard in bounds:
                resource.setrlimit(which, (soft, hard))
            if nice != os.getpriority(os.PRIO_PROCESS, 0):
                os.setpriority(os.PRIO_PROCESS, 0, nice)
            os.environ.clear()
            os.environ.update(environ)
            if "tempfile" in sys.modules:  # (its folder, found once a process, is the command's: TMPDIR)
                sys.modules["tempfile"].tempdir = None
            for signum in ignored:
                signal.signal(signum, signal.SIG_IGN)
            sys.argv = list(argv)
            # the standard streams anew on the command's descriptors, as Python opened them: standard
            # output line-buffered on a terminal, standard error always, both unbuffered under -u
            out, err = sys.stdout, sys.stderr  # (the server's, on the null device)
            sys.stdin = open(0, closefd=False, encoding=sys.stdin.encoding, errors=sys.stdin.errors)  # noqa: SIM115
            line = 1 if os.isatty(1) else -1
            sys.stdout = open(1, "w", buffering=line, closefd=False, encoding=out.encoding)  # noqa: SIM115
            sys.stderr = open(  # noqa: SIM115
                2, "w", buffering=1, closefd=False, encoding=err.encoding, errors="backslashreplace"
            )
            sys.stdout.reconfigure(write_through=out.write_through)
            sys.stderr.reconfigure(write_through=err.write_through)
            from dtcli.cli import main
            from dtcli.stops import install_early

            install_early()
            main()  # ends the process
            status = 0
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            with contextlib.suppress(BaseException):
                import traceback

                traceback.print_exc()
        finally:
            os._exit(status)


if __name__ == "__main__":
    main()
