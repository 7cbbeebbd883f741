"""train begins numba's set-up in a thread while a large table is read (induction/kernels/setup.py):
only for a file over the plain reader's limit and an engine that may be compiled, and a kernel
called meanwhile waits for it and computes as ever."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from dtcli.induction.kernels import setup
from dtcli.io.csv.reader import PLAIN_MAX
from dtcli.pipeline import train
from dtcli.pipeline.load import read_training


def started(monkeypatch, path, engine: str) -> bool:
    calls = []
    monkeypatch.setattr(setup, "set_up", lambda: calls.append(1))
    train.prepare_engines(str(path), None, engine)
    for thread in threading.enumerate():
        if thread.name == "dtree-numba-set-up":
            thread.join(timeout=60)
    return bool(calls)


def test_only_large_files_and_engines_that_may_compile(monkeypatch, tmp_path):
    small, large = tmp_path / "small.csv", tmp_path / "large.arff"
    small.write_text("a,b\n1,x\n", encoding="utf-8")
    large.write_bytes(b"%" * (PLAIN_MAX + 1))
    assert not started(monkeypatch, small, "auto")
    assert started(monkeypatch, large, "auto")
    assert started(monkeypatch, large, "compiled")
    assert not started(monkeypatch, large, "reference")
    assert not started(monkeypatch, tmp_path / "absent.csv", "auto")
    assert not started(monkeypatch, "-", "auto")


def test_a_kernel_called_during_the_set_up_computes_as_ever():
    pytest.importorskip("numba")
    from dtcli.induction.kernels.sort import ranked_order

    thread = threading.Thread(target=setup.set_up, name="dtree-numba-set-up", daemon=True)
    thread.start()
    values = np.array([3.0, 1.0, 2.0, 1.0])
    order, ranks = np.zeros(4, dtype=np.int32), np.zeros(4, dtype=np.int32)
    length, distinct = ranked_order(values, order, ranks)
    assert length == 4 and order.tolist() == [1, 3, 2, 0] and distinct.tolist() == [1.0, 2.0, 3.0]
    thread.join(timeout=60)
    assert not thread.is_alive()


def test_for_a_csv_file_the_set_up_waits_for_the_parse(monkeypatch, tmp_path):
    """The record scan holds the GIL between its numpy steps: the set-up begins once parse_csv has
    found the records (``csv_reader.PARSING``), beside pandas' parser, not beside the scan."""
    from dtcli.io.csv import reader as csv_reader

    calls = []
    monkeypatch.setattr(setup, "set_up", lambda: calls.append(1))
    large = tmp_path / "large.csv"
    large.write_bytes(b"x,y\n" + b"1,a\n" * (PLAIN_MAX // 4 + 1))
    train.prepare_engines(str(large), None, "auto")
    waiting = [t for t in threading.enumerate() if t.name == "dtree-numba-set-up"]
    assert waiting and not calls  # not before the parse begins
    table = read_training(str(large), None, (), (), None)[0]  # parse_csv sets PARSING
    for thread in waiting:
        thread.join(timeout=60)
    assert calls == [1] and table.n_rows == PLAIN_MAX // 4 + 1 and csv_reader.PARSING.is_set()
