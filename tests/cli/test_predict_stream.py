"""``dtree predict -o FILE`` reading its input a chunk at a time: the bytes and messages of the whole-file path."""

from __future__ import annotations

import json
import random
import threading

import numpy as np
import pytest

import dtcli.io.read
from dtcli.io.csv import chunks as csv_chunks
from dtcli.pipeline.predict_stream import ReadAhead, inserted

HEADER = "colour,size,weight,id,label"
N = 55_000  # rows: over a MiB (smaller files are read whole)


def lines(n: int, seed: int = 0) -> list[str]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        colour = rnd.choice("rgb")
        size = rnd.choice(["?", "", f"{rnd.uniform(0, 10):.2f}"])
        weight = rnd.gauss(0, 1)
        label = "yes" if (colour == "r") != (weight > 0.3) else "no"
        out.append(f"{colour},{size},{weight:.4f},{i},{label}")
    return out


@pytest.fixture
def model(run, tmp_path):
    train = tmp_path / "train.csv"
    train.write_text("\n".join([HEADER, *lines(400, seed=1)]) + "\n")
    path = tmp_path / "model.json"
    assert run("train", train, "--ignore", "id", "-a", "c45", "-q", "-o", path).exit_code == 0
    return path


@pytest.fixture
def chunked(monkeypatch):
    """Small chunks (several per file), and a record of whether the whole-file reader was used."""
    monkeypatch.setattr(csv_chunks, "CHUNK_BYTES", 1 << 16)
    used = []
    whole = dtcli.io.read.read_data
    monkeypatch.setattr(dtcli.io.read, "read_data", lambda *a, **k: used.append(a) or whole(*a, **k))
    return used


def data(tmp_path, rows: list[str], header: str = HEADER):
    path = tmp_path / "new.csv"
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def both(run, tmp_path, *args):
    """The whole-file path's result (standard output) and the streamed one's (-o FILE, its text)."""
    whole = run("predict", *args)
    out = tmp_path / "out.csv"
    out.unlink(missing_ok=True)
    streamed = run("predict", *args, "-o", out)
    return whole, streamed, out.read_text() if out.exists() else None


def test_streamed_output_and_report_equal_the_whole_file_path(run, model, tmp_path, chunked):
    rows = lines(N)
    rows[30_000] = rows[30_000].replace("yes", "maybe").replace("no", "maybe")  # a class never seen, late
    rows[35_000] = "v" + rows[35_000][1:]  # an unseen colour
    path = data(tmp_path, rows)
    for extra in ((), ("--proba",)):
        chunked.clear()
        whole, streamed, text = both(run, tmp_path, model, path, *extra)
        assert len(chunked) == 1  # the whole-file path's, once
        assert whole.exit_code == streamed.exit_code == 0
        assert text == whole.stdout and streamed.stdout == ""
        assert streamed.stderr == whole.stderr
        assert "'colour': 1 value(s) never seen in training" in streamed.stderr and "maybe" in streamed.stderr


def test_a_last_line_without_its_line_end_is_ended_as_the_whole_file_path_ends_it(run, model, tmp_path, chunked):
    path = data(tmp_path, lines(N))
    path.write_text(path.read_text().rstrip("\n"))
    whole, streamed, text = both(run, tmp_path, model, path)
    assert len(chunked) == 1 and whole.exit_code == streamed.exit_code == 0
    assert text == whole.stdout and text.endswith("\n")


def test_cells_are_put_before_each_line_end():
    body = b"a,1\nbb,2\nc,3"  # the last line without its line feed
    ends = np.array([3, 8, 12])
    pieces = [b",no", ",sí".encode(), b""]
    assert inserted(body, ends, pieces, np.array([1, 0, 2])) == "a,1,sí\nbb,2,no\nc,3\n".encode()


def test_metrics_json_equals_the_whole_file_path(run, model, tmp_path, chunked):
    path = data(tmp_path, lines(N))
    files = []
    for name, out in (("whole.json", "-"), ("streamed.json", tmp_path / "o.csv")):
        assert run("predict", model, path, "-o", out, "--metrics-json", tmp_path / name, "-q").exit_code == 0
        files.append(json.loads((tmp_path / name).read_text()))
    assert files[0] == files[1] and len(chunked) == 1


def test_a_bad_cell_late_in_the_file_gives_the_whole_file_message(run, model, tmp_path, chunked):
    rows = lines(N)
    cells = rows[39_000].split(",")
    rows[39_000] = ",".join([*cells[:2], "heavy", *cells[3:]])  # weight: not a number
    whole, streamed, text = both(run, tmp_path, model, data(tmp_path, rows))
    assert whole.exit_code == streamed.exit_code == 1 and text is None
    assert streamed.stderr == whole.stderr == f"Error: {tmp_path / 'new.csv'}: column 'weight' must be numeric " \
        "for this model, but line 39002 holds 'heavy'\n"  # fmt: skip


def test_quotes_are_read_whole_with_the_same_output(run, model, tmp_path, chunked):
    rows = lines(N)
    rows[20_000] = '"' + rows[20_000][0] + '"' + rows[20_000][1:]  # the colour, quoted
    whole, streamed, text = both(run, tmp_path, model, data(tmp_path, rows))
    assert text == whole.stdout and streamed.stderr == whole.stderr and len(chunked) == 2


def test_read_ahead_hands_over_items_and_errors_in_order():
    def items():
        yield from range(5)
        raise ValueError("late")

    reading = ReadAhead(items(), 2)
    got = []
    with pytest.raises(ValueError, match="late"):
        for item in reading:
            got.append(item)
    reading.close()
    assert got == list(range(5))


def test_read_ahead_stops_when_closed():
    made = []

    def items():
        for i in range(1_000_000):
            made.append(i)
            yield i

    reading = ReadAhead(items(), 1)
    assert next(iter(reading)) == 0
    reading.close()
    assert not reading.worker.is_alive() and len(made) < 10
    assert threading.active_count() >= 1
