"""Numbered tasks run in forked worker processes, the results in task order, no process left behind.

``run(task, n, jobs)`` returns ``[task(0), ..., task(n - 1)]``. With ``jobs`` 1 (or
one task, or no ``fork`` on this system) the tasks run here, one after the other;
otherwise ``min(jobs, n)`` workers are forked (they share the parent's tables
without copying them) and each is handed the next task number as it finishes one.
Results are kept by task number, so they are the same for any ``jobs``.

A worker writes nothing (its standard output and error go to ``/dev/null``),
ignores Ctrl-C (the parent stops on it and ends the workers), dies on SIGTERM and
SIGHUP, and is killed when the parent dies (Linux: the parent-death signal). The
stop signals are blocked while a worker is forked, so none arrives before it has
set this up. Whatever ends ``run`` (a result, an error, a stop signal in the
parent), every worker is killed and waited for before it returns or raises. When
a task fails, no further task starts, the ones before it finish, and the first
failing task's exception is raised, as a run in one process would raise it: a
``DtreeError`` unchanged, anything else as a RuntimeError naming it (a bug).

``Beside(task)`` runs one task in a forked process, as quiet as a worker, beside this one's work,
its result unused (the kernels it compiles into the cache are what it is for); ``stop`` kills it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys

STOPS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
PR_SET_PDEATHSIG = 1  # prctl(2)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    counted = getattr(os, "process_cpu_count", None)  # Python 3.13
    if counted is not None:
        return counted() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


LOADAVG = "/proc/loadavg"  # Linux: "1.00 0.80 0.70 2/230 4242", the fourth field runnable/all


def spare_core() -> bool:
    """Whether a core this process may use is idle besides the one it runs on: fewer processes
    runnable right now (Linux's ``/proc/loadavg``, this one among them) than ``usable_cores()``, or
    elsewhere the load average of the last minute at least one below it. (The average alone lags:
    in a script's loop of runs that each fork, it stays above one after the forks have ended.)
    False on one core, and where the system says neither."""
    cores = usable_cores()
    if cores < 2:
        return False
    try:
        with open(LOADAVG, encoding="ascii") as handle:
            return int(handle.read().split()[3].split("/")[0]) < cores
    except (OSError, ValueError, IndexError):
        pass
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return False
    return cores - load >= 1.0


def can_fork() -> bool:
    import multiprocessing  # (here: folds run in this process import none of it)

    return "fork" in multiprocessing.get_all_start_methods()


def in_worker() -> bool:
    """Whether this process is a worker forked by ``run`` (or by any ``multiprocessing`` parent)."""
    processes = sys.modules.get("multiprocessing")
    return processes is not None and processes.parent_process() is not None


SET_UP_WAIT = 5.0  # seconds a fork waits for dtree's own set-up thread (numba's import, pipeline/train.py)


def may_fork_beside() -> bool:
    """Whether a task may run in a forked process beside this one's work (``Beside``): ``fork``
    exists, a core is spare (``spare_core``), this is no worker, and no other thread runs (dtree's
    numba set-up thread is waited for): a fork copies only the forking thread, and a lock another
    thread held (a notebook's, an import's) would stay held in the child for ever."""
    if not hasattr(os, "fork") or in_worker() or not spare_core():
        return False
    import threading

    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.name.startswith("dtree-"):
            thread.join(SET_UP_WAIT)
    return threading.active_count() == 1


class Beside:
    """``task()`` run in a forked process beside this one's work, its result unused (what it leaves,
    such as compiled kernels in the cache, is what it is for). The process is quiet as ``run``'s workers
    are (no output, Ctrl-C ignored, killed with the parent); ``stop`` kills it and waits for it, and
    must be called (``with``) whatever ends the work."""

    def __init__(self, task):
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            with contextlib.suppress(Exception):
                stream.flush()
        parent = os.getpid()
        with _stops_blocked():
            pid = os.fork()
            if pid == 0:  # the child: never returns into the parent's code
                try:
                    _quiet_child(parent)
                    task()
                finally:
                    os._exit(0)
        self.pid: int | None = pid

    def stop(self) -> None:
        """Kill the process (if it still runs) and wait for it."""
        if self.pid is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        self.pid = None

    def __enter__(self) -> Beside:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def run(task, n: int, jobs: int, progress=None) -> list:
    """``[task(i) for i in range(n)]``, in up to ``jobs`` processes; ``progress(done, n)`` after each task."""
    if jobs <= 1 or n <= 1 or not can_fork():
        results = []
        for i in range(n):
            results.append(task(i))
            if progress is not None:
                progress(i + 1, n)
        return results
    return _Pool(task, min(jobs, n)).run(n, progress)


class _Pool:
    """Forked workers, each fed task numbers over its own pipe."""

    def __init__(self, task, size: int):
        self.task = task
        self.size = size
        self.workers: list = []  # (process, connection)

    def run(self, n: int, progress) -> list:
        results: list = [None] * n
        try:
            self._start()
            todo = iter(range(n))
            busy = {}
            for worker in self.workers:
                self._hand(worker, todo, busy)
            done, failed = 0, {}
            while busy:
                for worker in self._ready(busy):
                    index = busy.pop(worker)
                    try:
                        results[index] = self._receive(worker, index)
                    except Exception as exc:  # the tasks before it still finish: the first failure is raised
                        failed[index] = exc
                        continue
                    done += 1
                    if progress is not None:
                        progress(done, n)
                    if not failed:
                        self._hand(worker, todo, busy)
            if failed:
                raise failed[min(failed)]
            return results
        finally:
            self._stop()

    def _start(self) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
            with contextlib.suppress(Exception):
                stream.flush()
        parent = os.getpid()
        with _stops_blocked():
            for _ in range(self.size):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(self.task, theirs, parent), daemon=True)
                process.start()
                theirs.close()
                self.workers.append((process, mine))

    @staticmethod
    def _hand(worker, todo, busy) -> None:
        index = next(todo, None)
        if index is not None:
            worker[1].send(index)
            busy[worker] = index

    @staticmethod
    def _ready(busy) -> list:
        """The busy workers that answered or died."""
        waiting = {}
        for worker in busy:
            waiting[worker[1]] = worker
            waiting[worker[0].sentinel] = worker
        from multiprocessing.connection import wait

        ready = []
        for handle in wait(list(waiting)):
            if waiting[handle] not in ready:
                ready.append(waiting[handle])
        return ready

    @staticmethod
    def _receive(worker, index: int):
        process, connection = worker
        try:
            status, value = connection.recv()
        except (EOFError, OSError):
            process.join()
            raise RuntimeError(f"the worker process of task {index + 1} {_death(process.exitcode)}") from None
        if status == "error":
            raise value
        if status == "bug":
            raise RuntimeError(value)
        return value

    def _stop(self) -> None:
        for process, connection in self.workers:
            with contextlib.suppress(Exception):
                process.kill()
            connection.close()
        for process, _ in self.workers:
            process.join()
        self.workers = []


def _death(code) -> str:
    if code is not None and code < 0:
        with contextlib.suppress(ValueError):
            return f"was killed by {signal.Signals(-code).name}"
    return f"ended with status {code}"


@contextlib.contextmanager
def _stops_blocked():
    """The stop signals held back (in this thread) while workers are forked."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _serve(task, connection, parent: int) -> None:
    """A worker: set itself up, then answer task numbers with ("ok", result), ("error", DtreeError)
    or ("bug", message) until the pipe closes."""
    _quiet_child(parent)
    from dtcli.errors import DtreeError

    while True:
        try:
            index = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer = ("ok", task(index))
        except DtreeError as exc:
            answer = ("error", exc)
        except Exception as exc:
            answer = ("bug", f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)
        try:
            connection.send(answer)
        except (OSError, ValueError):
            return


def _quiet_child(parent: int) -> None:
    """No output; Ctrl-C ignored, SIGTERM and SIGHUP fatal; killed with the parent; then stops unblocked."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (for the worker's life)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the death signal was asked for
        os._exit(1)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
