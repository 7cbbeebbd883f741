"""The training progress line: on a terminal only, after a delay, erased at the end."""

from __future__ import annotations

import io

from dtcli.render.progress import TrainingProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_is_written_in_place_and_erased():
    stream = Terminal()
    progress = TrainingProgress(stream, delay=0.0)
    progress(3, 1234, 1_000_000, 0.5)
    progress(4, 5678, 999_000, 0.9)
    assert stream.getvalue().count("\r") == 2
    assert "level 4, 5,678 node(s), 999,000 rows" in stream.getvalue()
    progress.close()
    assert stream.getvalue().endswith("\r\x1b[K")


def test_no_progress_before_the_delay_or_off_a_terminal():
    quick = Terminal()
    TrainingProgress(quick, delay=60.0)(1, 2, 3, 0.1)
    assert quick.getvalue() == ""
    pipe = io.StringIO()
    progress = TrainingProgress(pipe, delay=0.0)
    progress(1, 2, 3, 0.1)
    progress.close()
    assert pipe.getvalue() == ""


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
