"""How large a Parquet input is, from its footers alone: its rows and its uncompressed size, checked against the limits.

Contract: ``check_bounds(footers, source, max_bytes, max_rows)`` takes the footers (pyarrow
FileMetaData) of a file or of a directory's parts and raises DataError, one line naming the
input, the size found, the limit and the option that raises it, when the parts together hold
more than ``max_rows`` rows or are more than ``max_bytes`` bytes uncompressed (0: no bound).
Nothing but the footers is read, so a small file that would expand to gigabytes is refused before
any of its columns is.

The uncompressed size (``uncompressed_size``) is what the table takes once decompressed and
decoded, as a CSV file's size is what its text takes: ``VALUE_BYTES`` for each value (rows times
columns: a number as dtree holds it, a float64; a string as its place in its column), plus the
uncompressed size of the pages of the columns of strings (physical type ``BYTE_ARRAY``), which
hold their text (a dictionary-encoded column once per distinct string). The compressed size on
disk says nothing of this: a column of ten million equal values compresses to a few kilobytes.
"""

from __future__ import annotations

from dtcli.errors import DataError
from dtcli.io.source import format_size

VALUE_BYTES = 8  # a value once decoded: a float64, or a string's place (offset) in its column
TEXT_TYPE = "BYTE_ARRAY"  # the physical type of string (and binary) columns: their text is in their pages


def uncompressed_size(footer) -> int:
    """The bytes a Parquet file's table takes uncompressed (see the module's contract)."""
    size = VALUE_BYTES * footer.num_rows * footer.num_columns
    schema = footer.schema
    texts = [j for j in range(footer.num_columns) if schema.column(j).physical_type == TEXT_TYPE]
    for group in range(footer.num_row_groups):
        chunks = footer.row_group(group)
        size += sum(chunks.column(j).total_uncompressed_size for j in texts)
    return size


def check_bounds(footers: list, source: str, max_bytes: int, max_rows: int) -> None:
    """Refuse the input ``source`` whose parts' ``footers`` pass ``max_rows`` or ``max_bytes`` (0: no bound)."""
    rows = sum(footer.num_rows for footer in footers)
    if max_rows and rows > max_rows:
        raise DataError(f"{source}: {rows:,} rows, more than {max_rows:,} (--max-rows); raise --max-rows or split it")
    if not max_bytes:
        return
    size = sum(uncompressed_size(footer) for footer in footers)
    if size > max_bytes:
        columns = footers[0].num_columns if footers else 0
        shape = f"{rows:,} {'row' if rows == 1 else 'rows'} of {columns} {'column' if columns == 1 else 'columns'}"
        raise DataError(
            f"{source}: {size:,} bytes uncompressed ({shape}), more than {format_size(max_bytes)} (--max-bytes); "
            "raise --max-bytes or split it"
        )
