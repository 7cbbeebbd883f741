"""A table as read, column by column, with no pandas: what the readers hand to ``encode``.

Contract: a reader returns ``Columns``: each column either a ``NumberColumn``
(float64, NaN missing) or a ``TextColumn`` (integer codes, -1 missing, into
the distinct cells as written). ``encode`` turns them into a Table; the CSV
and ARFF readers for small files build them in plain Python, the CSV reader
for large files from pandas' C parser, and both give the same columns.

What "a number" is for a cell read as text is ``csv_cells.parse_number``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NOT_AN_INSTANT = np.iinfo(np.int64).min  # a missing instant among int64 microseconds (numpy's NaT)


@dataclass
class NumberColumn:
    """Numbers, NaN where missing."""

    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    def cell(self, row: int):
        return float(self.values[row])

    def tolist(self) -> list:
        return self.values.tolist()


@dataclass
class TextColumn:
    """Cells as written: ``codes`` (-1 missing) into the distinct cells ``uniques``, which are
    in order of first appearance (every reader keeps to that, as ``of`` and ``pd.factorize`` do).
    The codes are signed integers of any width (``code_type``: the large-file reader's are the
    narrowest that hold them); ``encode`` makes the table's 4-byte codes from them."""

    codes: np.ndarray
    uniques: list

    @classmethod
    def of(cls, cells) -> TextColumn:
        """From a sequence of str (None missing), codes in order of first appearance."""
        index: dict[str, int] = {}
        codes = np.fromiter(
            (-1 if cell is None else index.setdefault(cell, len(index)) for cell in cells),
            dtype=np.int32,
            count=len(cells),
        )
        return cls(codes, list(index))

    @classmethod
    def of_instants(cls, micros: np.ndarray, zoned: bool) -> TextColumn:
        """Instants (int64 microseconds since 1970-01-01T00:00:00 UTC, ``NOT_AN_INSTANT`` missing) as the
        ISO 8601 text pandas writes of them to CSV: ``2024-03-15`` when every one is a midnight and
        ``zoned`` is false, else ``2024-03-15 10:30:00`` with as many
        digits of a second (none, 3 or 6) as they need, and ``Z`` after each when ``zoned`` (a column
        with a time zone: the instants in UTC). Each distinct instant is formatted once."""
        known = micros != NOT_AN_INSTANT
        distinct, first, inverse = np.unique(micros[known], return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")  # the texts in order of first appearance, as every reader keeps
        rank = np.empty(len(order), dtype=np.int32)
        rank[order] = np.arange(len(order), dtype=np.int32)
        codes = np.full(len(micros), -1, dtype=np.int32)
        codes[known] = rank[inverse.reshape(-1)]
        if not zoned and not (distinct % 86_400_000_000).any():
            unit = "D"
        else:
            unit = "s" if not (distinct % 1_000_000).any() else "ms" if not (distinct % 1000).any() else "us"
        instants = distinct[order].astype("datetime64[us]")
        texts = np.datetime_as_string(instants, unit=unit, timezone="UTC" if zoned else "naive")
        return cls(codes, [text.replace("T", " ") for text in texts.tolist()])

    def __len__(self) -> int:
        return len(self.codes)

    def cell(self, row: int):
        code = int(self.codes[row])
        return None if code < 0 else self.uniques[code]

    def tolist(self) -> list:
        return [self.cell(row) for row in range(len(self))]

    def factorize(self) -> tuple[np.ndarray, list]:
        """Codes (-1 missing) and the distinct cells, in order of first appearance."""
        return self.codes, self.uniques


def code_type(n_uniques: int) -> type:
    """The narrowest signed integer type holding codes of ``n_uniques`` cells and -1 (a million rows
    of a column of a few values: 1 MB of codes, not 4, while the file's columns become a table)."""
    return np.int8 if n_uniques <= 127 else np.int16 if n_uniques <= 32_767 else np.int32


class Columns:
    """Named columns of equal length, in file order (``columns``: the names)."""

    def __init__(self, data: dict, n_rows: int):
        self.data = data
        self.n_rows = n_rows

    @property
    def columns(self) -> list[str]:
        return list(self.data)

    def __getitem__(self, name: str):
        return self.data[name]

    def __contains__(self, name: str) -> bool:
        return name in self.data

    def __len__(self) -> int:
        return self.n_rows

    def to_csv(self, added: dict, drop: list) -> str:
        """The cells as pandas' ``DataFrame.to_csv`` writes them (QUOTE_MINIMAL, ``?`` for a missing cell,
        line feeds), without pandas: less ``drop``'s columns, with ``added``'s (cells of str) set, a name
        already there in its place. A lone carriage return in a cell is quoted, as a line feed is."""
        import csv
        import io

        cells: dict = {}
        for name, column in self.data.items():
            if name in drop:
                continue
            if isinstance(column, NumberColumn):  # (as pandas: numpy's text of each float64, ``?`` for NaN)
                values = np.asarray(column.values, dtype=np.float64)
                text = values.astype(str).astype(object)
                text[np.isnan(values)] = "?"
            else:
                text = np.array([*column.uniques, "?"], dtype=object)[column.codes]
            cells[name] = text
        cells.update(added)
        # The csv writer quotes a cell holding a line feed but not one holding a lone carriage return,
        # which a reader then takes for a line end. Such a CR goes out as NUL + LF (so the cell is quoted;
        # NUL never comes in, the reader refuses it) and comes back as CR once the text is made.
        carriage = False
        for name, column in cells.items():
            if any(isinstance(cell, str) and "\r" in cell for cell in column):
                carriage = True
                cells[name] = [cell.replace("\r", "\0\n") if isinstance(cell, str) else cell for cell in column]
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
        writer.writerow(list(cells))
        writer.writerows(zip(*cells.values()))
        return buffer.getvalue().replace("\0\n", "\r") if carriage else buffer.getvalue()

    def to_pandas(self):
        """A pandas DataFrame of the cells (numbers as float64, text as str with NaN missing)."""
        from dtcli.io.pandas_import import pandas

        pd = pandas()
        frame = {}
        for name, column in self.data.items():
            if isinstance(column, NumberColumn):
                frame[name] = pd.Series(column.values, dtype=np.float64)
            else:
                labels = np.array(list(column.uniques) + [None], dtype=object)
                frame[name] = pd.Series(labels[column.codes], dtype=object)
        return pd.DataFrame(frame, columns=list(self.data), index=pd.RangeIndex(self.n_rows))
