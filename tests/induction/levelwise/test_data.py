"""The level-wise engine's data in its smallest types: 2-byte value ranks where they fit, nominal
codes in bytes where every attribute has at most 127 values, the table's columns lent to the
engine's blocks and given back; every type gives the reference's tree."""

from __future__ import annotations

import numpy as np
import pytest
from trees import generated, grown_both

from dtcli.induction.levelwise import data
from dtcli.induction.levelwise.data import Columns, rank_type
from dtcli.model.table import NOMINAL, Attribute, Schema, Table

numba = pytest.importorskip("numba")


def test_rank_type_holds_every_rank():
    """Ranks run from 0 to distinct - 1: 65,536 distinct values fit 2 unsigned bytes, one more does not."""
    assert rank_type(1) == np.uint16
    assert rank_type(1 << 16) == np.uint16
    assert np.iinfo(np.uint16).max == (1 << 16) - 1
    assert rank_type((1 << 16) + 1) == np.int32


VARIANT = pytest.mark.variants  # 4-byte codes: the level-wise and pruning kernels compiled again


def with_wide_nominal(table: Table, n_values: int, seed: int) -> Table:
    """``table`` with a nominal attribute of ``n_values`` values that tells the classes apart in part."""
    rng = np.random.default_rng(seed)
    codes = rng.integers(-1, n_values, table.n_rows).astype(np.int32)
    hint = (codes >= 0) & (codes % 7 == 0)
    classes = table.y.copy()
    classes[hint] = 0
    attribute = Attribute("w", NOMINAL, tuple(f"v{i}" for i in range(n_values)))
    schema = Schema((*table.attributes, attribute), table.schema.target)
    return Table(schema, [*table.columns, codes], classes)


@pytest.mark.variants
def test_four_byte_ranks_grow_the_references_tree(monkeypatch):
    """Forced to 4-byte ranks (a column of more than 65,536 distinct values), the engine grows the
    per-node reference's tree, as it does with 2-byte ranks."""
    table = generated(3000, 5)
    grown_both(table, "c45")
    monkeypatch.setattr(data, "rank_type", lambda n: np.int32)
    from dtcli.induction.levelwise import fill

    monkeypatch.setattr(fill, "rank_type", lambda n: np.int32)
    grown_both(table, "c45")
    grown_both(table, "c45", missing="majority", prune="none")


@pytest.mark.parametrize("n_values", [127, pytest.param(128, marks=VARIANT), pytest.param(300, marks=VARIANT)])
def test_nominal_codes_in_bytes_or_integers_grow_the_references_tree(n_values):
    """An attribute of up to 127 values keeps the codes in bytes, more in 4-byte integers; both
    grow the reference's tree, pruned and unpruned."""
    table = with_wide_nominal(generated(4000, 9), n_values, 2)
    assert Columns(table.take(np.arange(table.n_rows)), np.arange(table.n_rows)).narrow == (n_values <= 127)
    grown_both(table, "c45")
    grown_both(table, "c45", prune="none", criterion="gain")


def test_lent_columns_are_given_back_as_the_table_held_them():
    """While the tree grows, the table's nominal columns are views of the engine's byte block; after
    growth they are 4-byte codes again, with the same values, and numeric columns stay views."""
    table = generated(2000, 3)
    before = [column.copy() for column in table.columns]
    columns = Columns(table, np.arange(table.n_rows), lend=True)
    assert columns.narrow and columns.nominal.dtype == np.int8
    assert table.columns[0].base is columns.nominal and table.columns[0].dtype == np.int8
    assert set(columns.lent) == {0, 3}
    columns.give_back(table)
    assert columns.lent == {}
    for i, column in enumerate(table.columns):
        assert column.dtype == before[i].dtype
        np.testing.assert_array_equal(column, before[i])
    assert table.columns[1].base is columns.numeric


def test_unlabelled_rows_lend_nothing():
    """With rows whose class is missing, the blocks hold the labelled rows only: the table keeps its own columns."""
    table = generated(500, 4)
    table.y[::10] = -1
    originals = list(table.columns)
    columns = Columns(table, np.flatnonzero(table.labelled()), lend=True)
    assert columns.lent == {}
    assert all(a is b for a, b in zip(table.columns, originals))
    assert columns.nominal.shape[1] == table.labelled().sum()
