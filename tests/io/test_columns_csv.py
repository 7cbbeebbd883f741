"""``Columns.to_csv`` (predict's rows written anew, no pandas) writes the bytes pandas' ``to_csv`` writes.

The reference is pandas itself: the same cells as a DataFrame (``Columns.to_pandas``), the new
columns set on it, written with ``to_csv(index=False, lineterminator="\\n", na_rep="?")``, as
``dtree predict`` wrote them before. Numbers of every magnitude, text that must be quoted, missing
cells, a column replaced in place and one dropped, empty tables, random tables.
"""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from dtcli.io.columns import Columns, NumberColumn, TextColumn

pd = pytest.importorskip("pandas")


def by_pandas(columns: Columns, added: dict, drop: list) -> str:
    """The reference: pandas' writer on the same cells (a lone CR quoted through NUL + LF, as predict did)."""
    frame = columns.to_pandas().drop(columns=drop)
    for name, values in added.items():
        frame[name] = values
    texts = [name for name in frame.columns if frame[name].dtype.kind != "f"]  # (pandas 3 infers str, not object)
    carriage = [name for name in texts if frame[name].astype(str).str.contains("\r", regex=False).any()]
    for name in carriage:
        frame[name] = frame[name].where(frame[name].isna(), frame[name].astype(str).str.replace("\r", "\0\n"))
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL, na_rep="?")
    return buffer.getvalue().replace("\0\n", "\r") if carriage else buffer.getvalue()


NUMBERS = [0.0, -0.0, 1.0, 3.0, 5.1, 0.1, 1 / 3, 1e16, 1e15, 123456789012345678.0, 1e-5, 1e-4, 2.5e-300, 1.7e308,
           float("inf"), float("-inf"), float("nan"), -12.75, 100.0, 4.35e-7, 0.30000000000000004]  # fmt: skip
TEXTS = ["plain", "with,comma", 'say "hi"', "two\nlines", "lone\rreturn", "crlf\r\n", " spaced ", "", "?", "é ünï"]


def table(numbers: list, texts: list) -> Columns:
    return Columns({"x": NumberColumn(np.array(numbers)), "t": TextColumn.of(texts)}, len(numbers))


def test_cells_of_every_kind_as_pandas_writes_them():
    n = len(NUMBERS)
    texts = [TEXTS[i % len(TEXTS)] if i % 7 else None for i in range(n)]
    columns = table(NUMBERS, texts)
    added = {"prediction": np.array([TEXTS[(i * 3) % len(TEXTS)] for i in range(n)], dtype=object)}
    assert columns.to_csv(added, []) == by_pandas(columns, added, [])


def test_a_column_replaced_in_place_and_one_dropped():
    columns = table([1.0, 2.5, float("nan")], ["a", None, "c"])
    same = {"x": np.array(["p", "q", "r"], dtype=object), "new": np.array(["1", "2", "3"], dtype=object)}
    assert columns.to_csv(same, []) == by_pandas(columns, same, [])
    assert columns.to_csv(same, ["t"]) == by_pandas(columns, same, ["t"])
    assert columns.to_csv({"t": np.array(["u", "v", "w"], dtype=object)}, ["t"]).splitlines()[0] == "x,t"


def test_no_rows():
    columns = table([], [])
    assert columns.to_csv({"prediction": []}, []) == by_pandas(columns, {"prediction": []}, []) == "x,t,prediction\n"


@pytest.mark.parametrize("seed", range(5))
def test_random_tables(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    with np.errstate(over="ignore", invalid="ignore"):
        numbers = rng.choice(NUMBERS, n) * rng.choice([1.0, 10.0 ** rng.integers(-8, 8)], n)
    letters = list('ab ,"\n\r?x')
    texts = [None if rng.random() < 0.2 else "".join(rng.choice(letters, rng.integers(0, 4))) for _ in range(n)]
    columns = table(list(numbers), texts)
    added = {f"proba_{k}": np.array([repr(v) for v in rng.random(n)], dtype=object) for k in range(2)}
    assert columns.to_csv(added, []) == by_pandas(columns, added, [])
