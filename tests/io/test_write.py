"""The atomic writer on the edges: devices, named pipes, symbolic links, inputs named as outputs, stop signals."""

from __future__ import annotations

import os
import signal
import stat
import threading

import pytest

from dtcli.cli import signals
from dtcli.errors import DataError
from dtcli.io.write import atomic, refuse_inputs, write_text


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_a_character_device_is_written_directly_not_replaced(tmp_path):
    write_text(os.devnull, "anything\n")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_a_full_device_is_one_error():
    with pytest.raises(DataError, match=r"^/dev/full: cannot write: No space left on device$"):
        write_text("/dev/full", "x" * 100_000)


def test_a_named_pipe_with_a_reader_receives_the_text(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()))
    reader.start()
    for _ in range(200):  # until the reader has opened its end
        try:
            write_text(str(pipe), "a,b\n1,2\n")
            break
        except DataError as exc:
            assert "no reader" in str(exc)
            threading.Event().wait(0.01)
    reader.join(5)
    assert got == [b"a,b\n1,2\n"]
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert leftovers(tmp_path) == []


def test_a_named_pipe_without_a_reader_is_one_error_not_a_hang(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(DataError, match=r"pipe: a named pipe with no reader; start the reader first$"):
        write_text(str(pipe), "x\n")
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_a_symbolic_link_is_followed_and_stays_a_link(tmp_path):
    (tmp_path / "real.json").write_text("old\n")
    (tmp_path / "link.json").symlink_to("real.json")
    write_text(str(tmp_path / "link.json"), "new\n")
    assert (tmp_path / "link.json").is_symlink()
    assert (tmp_path / "real.json").read_text() == "new\n"
    assert leftovers(tmp_path) == []


def test_an_output_naming_an_input_is_refused(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("a,b\n")
    (tmp_path / "hard.csv").hardlink_to(data)
    (tmp_path / "soft.csv").symlink_to("d.csv")
    for name in ("d.csv", "hard.csv", "soft.csv"):
        with pytest.raises(DataError, match=r"-o would overwrite DATA, an input of this command"):
            refuse_inputs(str(tmp_path / name), "-o", {"DATA": str(data)})
    refuse_inputs(str(tmp_path / "new.json"), "-o", {"DATA": str(data)})  # a new file: fine
    refuse_inputs(os.devnull, "-o", {"DATA": os.devnull})  # a device is not destroyed by writing
    refuse_inputs("-", "-o", {"DATA": "-"})


@pytest.mark.parametrize("chunks_before", [0, 1, 5])
@pytest.mark.parametrize("stop", [KeyboardInterrupt, lambda: signals.Interrupt(signal.SIGTERM), OSError])
def test_an_interrupted_write_keeps_the_old_file_and_leaves_no_temp(tmp_path, chunks_before, stop):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    with pytest.raises((KeyboardInterrupt, signals.Interrupt, DataError)), atomic(str(target)) as handle:
        for _ in range(chunks_before):
            handle.write("x" * 70_000)
        raise stop()
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


def test_a_real_signal_during_the_write_unwinds_it(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    previous = signal.getsignal(signal.SIGTERM)
    signals.install()
    try:
        with pytest.raises(signals.Interrupt) as caught, atomic(str(target)) as handle:
            handle.write("half")
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs at the next bytecode boundary
                handle.write("more")
    finally:
        for signum in signals.STOPS:
            signal.signal(signum, previous if signum == signal.SIGTERM else signal.default_int_handler)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
    assert caught.value.status == 143
    assert target.read_text() == "old\n"
    assert leftovers(tmp_path) == []


@pytest.fixture
def stop_handlers():
    """The CLI's stop handlers for the test, the previous ones afterwards."""
    previous = {signum: signal.getsignal(signum) for signum in signals.STOPS}
    signals.install()
    yield
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def signal_during_replace(monkeypatch):
    """Make the rename that puts the file in place also send SIGTERM to this process."""
    real = os.replace

    def replace(src, dst):
        os.kill(os.getpid(), signal.SIGTERM)
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)


def test_a_signal_while_the_last_output_is_put_in_place_is_ignored(tmp_path, monkeypatch, stop_handlers):
    target = tmp_path / "out.json"
    target.write_text("old\n")
    signal_during_replace(monkeypatch)
    with atomic(str(target), last=True) as handle:
        handle.write("new\n")
    for _ in range(1000):  # a handler would have run by now
        pass
    assert target.read_text() == "new\n"
    assert leftovers(tmp_path) == []
    os.kill(os.getpid(), signal.SIGTERM)  # the run has finished: no stop from here on
    for _ in range(1000):
        pass


def test_a_signal_while_an_earlier_output_is_put_in_place_stops_after_it(tmp_path, monkeypatch, stop_handlers):
    target = tmp_path / "trace.txt"
    signal_during_replace(monkeypatch)
    with pytest.raises(signals.Interrupt), atomic(str(target)) as handle:
        handle.write("trace\n")
    assert target.read_text() == "trace\n"  # complete, never half
    assert leftovers(tmp_path) == []
