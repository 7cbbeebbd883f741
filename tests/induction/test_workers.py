"""Forked workers: results in task order, progress counted, a dead worker one error, no process left behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time

import pytest

from dtcli.errors import ParameterError
from dtcli.induction import workers


def squares(i):
    return i * i, os.getpid()


@pytest.mark.parametrize("jobs", [1, 2, 5])
def test_results_come_back_in_task_order_whatever_the_processes(jobs):
    counted = []
    results = workers.run(squares, 7, jobs, lambda done, total: counted.append((done, total)))
    assert [r[0] for r in results] == [i * i for i in range(7)]
    assert counted == [(done, 7) for done in range(1, 8)]
    assert (len({r[1] for r in results} - {os.getpid()}) > 0) == (jobs > 1)  # run elsewhere with jobs > 1
    assert multiprocessing.active_children() == []


def test_a_worker_writes_nothing(capfd):
    def noisy(i):
        print("out", i)
        print("err", i, file=sys.stderr)
        os.write(1, b"raw\n")
        return i

    assert workers.run(noisy, 4, 2) == [0, 1, 2, 3]
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_a_worker_killed_is_one_error_and_the_others_are_ended():
    def dies(i):
        if i == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return i

    with pytest.raises(RuntimeError, match="task 3 was killed by SIGKILL"):
        workers.run(dies, 6, 2)
    assert multiprocessing.active_children() == []


def test_an_error_is_raised_as_it_is_and_a_bug_names_itself():
    def refuses(i):
        if i == 1:
            raise ParameterError("--x 1: no")
        return i

    with pytest.raises(ParameterError, match=r"^--x 1: no$"):
        workers.run(refuses, 4, 2)

    def buggy(i):
        return {}[i]

    with pytest.raises(RuntimeError, match="^KeyError: 0$"):
        workers.run(buggy, 3, 2)
    assert multiprocessing.active_children() == []


def test_usable_cores_counts_this_process_affinity():
    assert workers.usable_cores() == len(os.sched_getaffinity(0))


def test_a_task_beside_runs_in_its_own_quiet_process_and_stop_ends_it(tmp_path, capfd):
    """``Beside``: the task runs in a forked process (it writes nothing to this one's outputs) while this
    one goes on; ``stop`` kills it, waits for it, and may be called again."""
    mark = tmp_path / "started"

    def task():
        print("out")
        os.write(2, b"err\n")
        mark.write_text(str(os.getpid()))
        signal.pause()  # (until stopped)

    with workers.Beside(task) as beside:
        pid = beside.pid
        for _ in range(500):
            if mark.exists() and mark.read_text():
                break
            time.sleep(0.01)
        assert int(mark.read_text()) == pid != os.getpid()
    assert beside.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # gone and waited for (no zombie left)
    beside.stop()
    out, err = capfd.readouterr()
    assert out == "" and err == ""


def test_a_task_beside_that_fails_or_ends_leaves_nothing_behind():
    def failing():
        raise RuntimeError("no numba here")

    for task in (failing, lambda: None):
        with workers.Beside(task) as beside:
            pid = beside.pid
            time.sleep(0.05)
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_no_task_is_forked_beside_another_thread_a_worker_or_a_busy_machine(monkeypatch):
    """A fork copies only the forking thread: another thread's lock would stay held in the child."""
    import threading

    monkeypatch.setattr(workers, "spare_core", lambda: True)
    assert workers.may_fork_beside() == (threading.active_count() == 1)
    release = threading.Event()
    other = threading.Thread(target=release.wait, name="a notebook's")
    other.start()
    try:
        assert not workers.may_fork_beside()
    finally:
        release.set()
        other.join()
    quick = threading.Thread(target=time.sleep, args=(0.2,), name="dtree-numba-set-up")
    quick.start()  # dtree's own set-up thread is waited for
    assert workers.may_fork_beside() == (threading.active_count() == 1)
    monkeypatch.setattr(workers, "spare_core", lambda: False)
    assert not workers.may_fork_beside()
