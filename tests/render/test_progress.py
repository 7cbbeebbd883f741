"""Progress on stderr: a bar on a terminal, plain lines under TERM=dumb, nothing on a pipe; erased at the end."""

from __future__ import annotations

import io
import sys

import pytest

from dtcli.render.progress import TrainingProgress, mode, steps


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


ERASE = "\r\x1b[1A\x1b[2K"  # what rich writes last when it takes a one-line bar away


@pytest.fixture
def colour_term(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")


def test_where_progress_shows(monkeypatch):
    monkeypatch.setenv("TERM", "xterm")
    assert mode(Terminal()) == "bar"
    assert mode(io.StringIO()) == "off"
    assert mode(object()) == "off"  # no isatty at all
    for term in ("dumb", "DUMB", "unknown"):
        monkeypatch.setenv("TERM", term)
        assert mode(Terminal()) == "lines"
        assert mode(io.StringIO()) == "off"


def test_bar_shows_steps_and_is_erased(colour_term):
    stream = Terminal()
    with steps("cross-validation", 10, stream=stream, delay=0.0) as work:
        work.advance()
        work.last = float("-inf")  # as if a tenth of a second had passed
        work.advance(2)
        assert "3/10" in stream.getvalue() and "cross-validation" in stream.getvalue()
    assert stream.getvalue().endswith(ERASE)


def test_bar_is_erased_when_the_work_is_interrupted(colour_term):
    stream = Terminal()
    with pytest.raises(KeyboardInterrupt), steps("predicting", 5, stream=stream, delay=0.0) as work:
        work.advance()
        raise KeyboardInterrupt
    assert stream.getvalue().endswith(ERASE)


def test_messages_while_the_bar_shows_go_above_it(colour_term, monkeypatch):
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    with steps("training", None, delay=0.0) as work:
        work.update(detail="level 1")
        sys.stderr.write("Warning: something\n")
        sys.stderr.flush()
    assert sys.stderr is stream  # the redirection is undone
    assert "Warning: something" in stream.getvalue() and stream.getvalue().endswith(ERASE)


def test_work_inside_work_shows_only_the_outer_bar(colour_term):
    stream = Terminal()
    with steps("cross-validation", 3, stream=stream, delay=0.0) as folds:
        folds.advance()
        inner = TrainingProgress(stream, delay=0.0)
        drawn = stream.getvalue()
        inner(2, 10, 100, 0.1)
        inner.close()
        assert stream.getvalue() == drawn  # the fold's training drew nothing
        folds.last = float("-inf")
        folds.advance()
        assert "2/3" in stream.getvalue()
    assert stream.getvalue().endswith(ERASE)
    after = Terminal()
    with steps("predicting", 1, stream=after, delay=0.0) as work:  # once the outer bar is gone, a new one shows
        work.advance()
    assert "predicting" in after.getvalue()


def test_worker_processes_show_nothing(colour_term):
    import multiprocessing

    context = multiprocessing.get_context("fork")
    with context.Pool(1) as pool:
        assert pool.apply(mode, (Terminal(),)) == "off"
    assert mode(Terminal()) == "bar"


def test_nothing_before_the_delay_nor_quiet_nor_off_a_terminal(colour_term):
    quick = Terminal()
    with steps("training", 3, stream=quick, delay=60.0) as work:
        work.advance()
    silenced = Terminal()
    with steps("training", 3, stream=silenced, delay=0.0, quiet=True) as work:
        work.advance()
    pipe = io.StringIO()
    with steps("training", 3, stream=pipe, delay=0.0) as work:
        work.advance()
    assert quick.getvalue() == silenced.getvalue() == pipe.getvalue() == ""


def test_dumb_terminal_gets_plain_lines_now_and_then(monkeypatch):
    monkeypatch.setenv("TERM", "dumb")
    stream = Terminal()
    with steps("cross-validation", 10, stream=stream, delay=0.0) as work:
        for _ in range(10):
            work.advance()  # within DUMB_EVERY seconds of the first: one line only
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cross-validation: 1/10, ")
    assert "\x1b" not in stream.getvalue() and "\r" not in stream.getvalue()


def test_training_progress_shows_the_level(colour_term):
    stream = Terminal()
    progress = TrainingProgress(stream, delay=0.0)
    progress(3, 1234, 1_000_000, 0.5)
    assert "level 3, 1,234 node(s), 1,000,000 rows" in stream.getvalue()
    progress.close()
    assert stream.getvalue().endswith(ERASE)
    off = Terminal()
    progress = TrainingProgress(off, enabled=False, delay=0.0)
    progress(3, 1234, 1_000_000, 0.5)
    progress.close()
    assert off.getvalue() == ""


def test_engine_reports_each_level():
    from trees import fit, generated

    seen = []
    fit(generated(2000, 1), "c45", engine="compiled", prune="none", progress=lambda *args: seen.append(args))
    levels = [level for level, *_ in seen]
    assert levels == list(range(len(levels))) and len(levels) >= 3
    assert seen[0][1:3] == (1, 2000)  # the root: one node, every row


def test_cli_prints_no_progress_to_a_pipe(run, tmp_path):
    result = run("train", "sample_data/weather.csv", "--ignore", "Day")
    assert "training:" not in result.stderr


def test_cart_builder_progress_is_polled_while_it_runs():
    """The compiled CART builders run in a thread of their own; the caller reads their status
    (depth, nodes, rows expanded) a few times a second, and runs them again with twice the room
    when fractional cases outgrow it."""
    import time

    import numpy as np

    from dtcli.induction.cart.engine import _fitting

    status = np.zeros(3, dtype=np.int64)
    rooms, seen = [], []

    def run(room):
        rooms.append(room)
        status[:] = (7, 99, 12345)
        time.sleep(0.6)
        return "tree", room < 200  # too small the first time

    assert _fitting(run, 100, lambda *args: seen.append(args), status) == ("tree",)
    assert rooms == [100, 200]
    assert seen and seen[0][:3] == (7, 99, 12345) and seen[-1][3] > 0.5
    assert _fitting(run, 400, None, status) == ("tree",)  # no progress asked for: nothing polled


def test_a_compile_is_announced_on_the_bar_at_once_and_kept_through_level_0(colour_term):
    stream = Terminal()
    progress = TrainingProgress(stream)  # the usual delay: the announcement shows at once all the same
    progress.compiling(12.4)
    assert "compiling kernels (once per machine, about 12 s)" in stream.getvalue()
    progress.work.last = float("-inf")
    progress(0, 0, 0, 3.0)  # the CART builder's status while its kernels compile
    assert stream.getvalue().count("compiling kernels") >= 2
    progress.work.last = float("-inf")
    progress(1, 2, 5000, 9.0)
    assert "level 1, 2 node(s), 5,000 rows" in stream.getvalue()
    progress.close()


def test_a_compile_is_one_line_on_a_pipe_held_under_json_and_said_with_q_too(monkeypatch):
    """-q drops the tree, the notes and the bar, but a wait of many seconds is never silent."""
    from dtcli.render.console import hold_messages, release_messages, take_warnings

    pipe = io.StringIO()
    monkeypatch.setattr(sys, "stderr", pipe)
    TrainingProgress(pipe).compiling(30)
    assert pipe.getvalue() == "compiling kernels (once per machine, about 30 s)\n"
    TrainingProgress(pipe, enabled=False).compiling(30)  # -q: the same one line
    assert pipe.getvalue() == "compiling kernels (once per machine, about 30 s)\n" * 2
    hold_messages()  # -f json with a document on standard error: the notice joins its warnings
    try:
        TrainingProgress(pipe).compiling(30)
        assert take_warnings() == ["compiling kernels (once per machine, about 30 s)"]
    finally:
        release_messages()
    assert pipe.getvalue().count("\n") == 2
