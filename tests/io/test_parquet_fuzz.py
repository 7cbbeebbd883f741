"""Any table of nominal (strings, bools), integer and float columns with missing cells, written as CSV
and as Parquet, becomes the same training Table: the same kinds, values in the same order, the same codes."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtcli.io.encode import infer_table
from dtcli.io.read import read_data

pa = pytest.importorskip("pyarrow", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")
pq = pytest.importorskip("pyarrow.parquet", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")

# Words (with spaces around some, which both readers ignore) and the cells that mean "missing" in both.
WORDS = st.sampled_from(["a", "b", "red", " b", "c ", "?", "", "x y", "A"])
KINDS = {
    "nominal": (st.one_of(st.none(), WORDS), pa.string()),
    "bool": (st.one_of(st.none(), st.booleans()), pa.bool_()),
    "integer": (st.one_of(st.none(), st.integers(-(2**40), 2**40)), pa.int64()),
    "float": (st.one_of(st.none(), st.just(math.nan), st.floats(-1e12, 1e12, allow_nan=False)), pa.float64()),
}


def cell(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)


@st.composite
def tables(draw):
    rows = draw(st.integers(1, 12))
    kinds = draw(st.lists(st.sampled_from(list(KINDS)), min_size=1, max_size=4))

    def column(cells):
        return draw(st.lists(cells, min_size=rows, max_size=rows))

    columns = {f"c{i}": (kind, column(KINDS[kind][0])) for i, kind in enumerate(kinds)}
    columns["class"] = ("nominal", column(st.sampled_from(["yes", "no"])))
    return columns, rows


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables())
def test_csv_and_parquet_make_the_same_table(tmp_path, table):
    columns, rows = table
    lines = [",".join(columns)] + [",".join(cell(values[r]) for _, values in columns.values()) for r in range(rows)]
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    arrow = {name: pa.array(values, KINDS[kind][1], from_pandas=False) for name, (kind, values) in columns.items()}
    pq.write_table(pa.table(arrow), tmp_path / "t.parquet")
    expected = infer_table(read_data(str(tmp_path / "t.csv"), None, ["class"]), "class")
    got = infer_table(read_data(str(tmp_path / "t.parquet"), None, ["class"]), "class")
    assert got.schema == expected.schema
    assert all(same(a, b) for a, b in zip(got.columns, expected.columns))
    assert same(got.y, expected.y)
