"""A run's outputs: put in place together when it succeeds, none when it fails; temporary files registered first.

Also the temporary file's name (cut to the file system's limit, never the
target's) and what the input check compares: every file a command reads.
"""

from __future__ import annotations

import os
import signal

import pytest

from dtcli.cli import signals
from dtcli.errors import DataError
from dtcli.io import write
from dtcli.io.targets import check_output, refuse_inputs, same_output, stream_fd


@pytest.fixture
def run_open():
    """A run begun (as the guard begins one); whatever the test leaves, failed afterwards."""
    write.begin()
    yield
    write.failed()
    write.listen()


@pytest.fixture
def stop_handlers():
    """The CLI's stop handlers for the test, the previous ones afterwards."""
    previous = {signum: signal.getsignal(signum) for signum in signals.STOPS}
    signals.install()
    yield
    for signum, handler in previous.items():
        signal.signal(signum, handler)


def temps(directory) -> list[str]:
    return sorted(p for p in os.listdir(directory) if p.endswith(".tmp"))


def test_a_run_puts_its_files_in_place_only_at_its_last_write(tmp_path, run_open):
    write.write_text(str(tmp_path / "trace.txt"), "trace\n")
    write.write_text(str(tmp_path / "metrics.json"), "{}\n")
    assert sorted(os.listdir(tmp_path)) == temps(tmp_path) and len(temps(tmp_path)) == 2
    write.write_text(str(tmp_path / "model.json"), "model\n", last=True)
    assert sorted(os.listdir(tmp_path)) == ["metrics.json", "model.json", "trace.txt"]
    assert (tmp_path / "trace.txt").read_text() == "trace\n"


def test_a_run_that_fails_puts_nothing_in_place_and_leaves_no_temporary_file(tmp_path, run_open):
    (tmp_path / "out.csv").write_text("old\n")
    write.write_text(str(tmp_path / "out.csv"), "new\n")
    write.write_text(str(tmp_path / "a.json"), "a\n")
    write.write_text(str(tmp_path / "b.json"), "b\n")
    write.failed()
    assert os.listdir(tmp_path) == ["out.csv"]
    assert (tmp_path / "out.csv").read_text() == "old\n"


def test_a_run_that_succeeds_puts_the_rest_in_place(tmp_path, run_open):
    write.write_text(str(tmp_path / "plot.svg"), "<svg/>\n")
    write.succeeded()
    assert os.listdir(tmp_path) == ["plot.svg"]


def test_outside_a_run_a_file_is_in_place_at_once(tmp_path):
    write.write_text(str(tmp_path / "x.txt"), "x\n")
    assert os.listdir(tmp_path) == ["x.txt"]


def test_the_temporary_file_is_registered_before_it_exists(tmp_path, run_open, monkeypatch):
    seen = []
    real = os.open

    def watching(path, flags, mode=0o777, **kwargs):
        if str(path).endswith(".tmp"):
            seen.append((os.path.exists(path), path in write.temporaries()))
        return real(path, flags, mode, **kwargs)

    monkeypatch.setattr(os, "open", watching)
    write.write_text(str(tmp_path / "m.json"), "{}\n")
    assert seen == [(False, True)]


def test_a_stop_between_enter_and_the_body_is_cleaned_up_by_the_run(tmp_path, run_open):
    """The race: a signal after the context manager's __enter__ returned, before its body; the
    manager's exit never runs (its generator stays suspended), the run's failure removes the file."""
    manager = write.atomic(str(tmp_path / "out.json"))
    manager.__enter__()
    assert len(temps(tmp_path)) == 1
    write.failed()  # what the guard does as the Interrupt passes
    assert os.listdir(tmp_path) == []
    assert manager.gen.gi_frame is not None


def test_a_real_signal_held_while_the_temporary_file_is_made_removes_it(tmp_path, run_open, stop_handlers, monkeypatch):
    """SIGTERM sent while the file is being created is held, then raised: the file goes, the stop stands."""
    real = os.open

    def signalling(path, flags, mode=0o777, **kwargs):
        fd = real(path, flags, mode, **kwargs)
        if str(path).endswith(".tmp"):
            os.kill(os.getpid(), signal.SIGTERM)
        return fd

    monkeypatch.setattr(os, "open", signalling)
    with pytest.raises(signals.Interrupt), write.atomic(str(tmp_path / "out.json")) as handle:
        handle.write("x")
    write.failed()
    assert os.listdir(tmp_path) == []


def test_a_stop_held_by_nested_holds_is_raised_when_the_outer_ends(run_open, stop_handlers):
    reached = []
    with pytest.raises(signals.Interrupt), write.signals_held():
        with write.signals_held():
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # a handler would have run by now
                pass
        reached.append("inner hold ended")  # it neither dropped the stop nor raised it
    assert reached == ["inner hold ended"]


@pytest.mark.parametrize("name", ["a" * 251 + ".csv", "é" * 125 + "x.csv", "\u20ac" * 83 + ".js"])
def test_a_name_at_the_limit_gets_a_temporary_name_that_fits(tmp_path, name):
    assert len(os.fsencode(name)) <= 255
    made = []
    real = os.open

    def watching(path, flags, mode=0o777, **kwargs):
        made.append(os.path.basename(path))
        return real(path, flags, mode, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "open", watching)
        write.write_text(str(tmp_path / name), "x\n")
    assert os.listdir(tmp_path) == [name]
    assert len(made) == 1 and len(os.fsencode(made[0])) <= 255
    assert made[0].startswith(".") and made[0].endswith(".tmp")


def test_a_name_ending_in_a_slash_is_refused(tmp_path):
    for name in ("out.json/", "out.json/.", "out.json/.."):
        with pytest.raises(DataError, match=r": names a directory, not a file; give a file name"):
            check_output(f"{tmp_path}/{name}")
    with pytest.raises(DataError, match=r": is a directory; give a file name$"):
        check_output(str(tmp_path) + "/")


def test_the_names_of_the_standard_streams(tmp_path):
    (tmp_path / "link").symlink_to("/dev/stdout")
    (tmp_path / "chain").symlink_to("link")
    for name, fd in [("-", 1), ("/dev/stdout", 1), ("/dev/fd/1", 1), ("/proc/self/fd/1", 1), ("/dev/stderr", 2),
                     (f"/proc/{os.getpid()}/fd/2", 2), (str(tmp_path / "link"), 1), (str(tmp_path / "chain"), 1),
                     ("/dev/fd/7", 7)]:  # fmt: skip
        assert stream_fd(name) == fd, name
    for name in ("/dev/null", "/proc/1/fd/1", str(tmp_path / "x.json"), "/dev/fd/x"):
        assert stream_fd(name) is None, name


def test_an_input_is_every_file_it_stands_for(tmp_path):
    (tmp_path / "pq").mkdir()
    for name in ("p1.parquet", "p2.parquet", "notes.txt"):
        (tmp_path / "pq" / name).write_bytes(b"PAR1")
    (tmp_path / "link.csv").symlink_to(tmp_path / "pq" / "p2.parquet")
    inputs = {"DATA": str(tmp_path / "pq")}
    for name in ("pq/p1.parquet", "pq/notes.txt", "link.csv"):
        with pytest.raises(DataError, match=r"-o would overwrite a part of DATA \(.*pq\), an input"):
            refuse_inputs(str(tmp_path / name), "-o", inputs)
    with pytest.raises(DataError, match=r"-o would overwrite DATA, an input"):
        refuse_inputs(str(tmp_path / "pq"), "-o", inputs, folder=True)
    refuse_inputs(str(tmp_path / "pq"), "-o", inputs)  # (not a folder output: "is a directory" says it)
    refuse_inputs(str(tmp_path / "pq" / "new.csv"), "-o", inputs)  # a new file beside the parts: nothing destroyed
    glob = {"DATA": str(tmp_path / "pq" / "*.parquet")}
    with pytest.raises(DataError, match=r"-o would overwrite a file of DATA \(.*\*\.parquet\), an input"):
        refuse_inputs(str(tmp_path / "pq" / "p1.parquet"), "-o", glob)
    refuse_inputs(str(tmp_path / "pq" / "notes.txt"), "-o", glob)


def test_two_outputs_naming_one_file(tmp_path):
    (tmp_path / "a.json").write_text("{}")
    (tmp_path / "b.json").hardlink_to(tmp_path / "a.json")
    assert same_output(str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert same_output(str(tmp_path / "new.csv"), f"{tmp_path}/./new.csv")
    assert not same_output(str(tmp_path / "new.csv"), str(tmp_path / "other.csv"))
    assert not same_output("/dev/null", "/dev/null")
    assert not same_output("/dev/stdout", "-")
