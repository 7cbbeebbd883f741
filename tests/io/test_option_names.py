"""Column names from --ignore and --nominal: repeatable and comma-separated, the same on every engine."""

from __future__ import annotations

import pytest

from dtcli.errors import DataError
from dtcli.io.names import split_names

COLUMNS = ["a", "b", "c,d", "y"]


def test_commas_separate_names_unless_a_column_has_the_whole_value():
    assert split_names(("a,b",), COLUMNS) == ["a", "b"]
    assert split_names(("a", "b"), COLUMNS) == ["a", "b"]
    assert split_names(("c,d",), COLUMNS) == ["c,d"]
    assert split_names((" a , b ,",), COLUMNS) == ["a", "b"]


def test_the_dask_layout_splits_as_the_one_machine_reader_does():
    pytest.importorskip("dask", reason="the Dask engine needs the optional extra: pip install 'dtree[scale]'")
    from dtcli.io.dask.frames import layout

    lay = layout(COLUMNS, "y", ("c,d",), ("a,b",), "t.csv")
    assert lay.attributes == ("a", "b") and lay.nominal == {"a", "b", "y"}
    with pytest.raises(DataError, match="no column 'e' \\(from --nominal\\)"):
        layout(COLUMNS, "y", (), ("a,e",), "t.csv")
