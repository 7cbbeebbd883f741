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
