"""pandas DataFrames of plain records, for the Python API's ``to_frame`` (pandas is io's to import)."""

from __future__ import annotations


def records_frame(records: list[dict], columns: list[str]):
    """A DataFrame of ``records`` (dicts), with ``columns`` in this order."""
    from dtcli.io.pandas_import import pandas

    return pandas().DataFrame.from_records(records, columns=columns)
