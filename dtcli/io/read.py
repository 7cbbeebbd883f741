"""Read CSV, ARFF and Parquet files into a :class:`RawData`: text cells plus declared types.

A RawData keeps every cell as the text the file had (so ``predict`` can
echo input rows unchanged) and, for ARFF, the declared attribute types.
``dtcli.io.encode`` turns it into the columnar Table. The format-specific
parsers are ``csv_reader`` (plain Python for small files, pandas' C parser
for the rest) and ``arff_reader`` (liac-arff); the bytes come from ``source``
(bounded, gzip, pipes) and line ends are LF, CRLF and CR, mixed or not. A Parquet
file or directory (````is_parquet````: by name, by its first bytes, or a directory)
is read by ``parquet`` (pyarrow, an optional dependency) into the same columns.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import Columns
from dtcli.io.csv.reader import parse_csv
from dtcli.io.source import DATA, DEFAULT_LIMITS, Limits, read_input
from dtcli.model.table import Attribute

FORMATS = ("csv", "arff", "parquet")
LINE_END = re.compile(r"\r\n|\r|\n")
MENDED = re.compile(r"[0-9+\-eE ]*\.[0-9][0-9+\-eE ]*")  # a number cell (1,5; 1 804,42) the mender made 1.5
LEADING_SPACE = re.compile(rb"\s*")
PARQUET_MAGIC = b"PAR1"


@dataclass
class RawData:
    """A table as read: ``frame`` holds number columns (float64, NaN missing) and text
    columns (the cells as written, code -1 missing); ``declared`` the ARFF types by
    column; ``lines`` the file line of each row, for messages (None if unknown); for CSV,
    ``raw`` (the file's bytes) and ``sep`` so that rows can be echoed exactly as they were written."""

    frame: Columns
    source: str
    sha256: str
    declared: dict[str, Attribute] = field(default_factory=dict)
    lines: np.ndarray | None = None
    raw: bytes | bytearray | None = None
    sep: str = ","
    decimal: str = "."

    def echo_lines(self) -> list[str] | None:
        """The header and data lines as written (CSV whose every record is one line), else None.

        Quotes are kept as written. A record that a quoted line end spreads over lines holds at least
        two lines that are not blank (the opening and the closing quote's), so the lines that are not
        blank number the records plus the header exactly when each record is one line."""
        if self.raw is None:
            return None
        text = self.raw.decode("utf-8")
        if "\r" not in text:  # the common case, without a pass per line in Python
            lines = text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if len(lines) == len(self.frame) + 1 and "" not in lines:
                return lines  # every line a record (pandas skips blank ones, which would change the count)
        lines = [line for line in LINE_END.split(text) if line.strip()]
        return lines if len(lines) == len(self.frame) + 1 else None

    def echo_blocks(self, step: int):
        """``echo_lines`` a block at a time: (the header line, an iterator of lists of up to ``step``
        data lines), or None. A file of LF line ends is cut at its line ends in the bytes, so the
        lines of one block at a time exist as text; other files are split whole (``echo_lines``)."""
        if self.raw is None:
            return None
        step = max(1, step)
        buffer = np.frombuffer(self.raw, dtype=np.uint8)
        piece = 1 << 24  # bytes compared at once (not a flag a byte for the whole file)
        ends = np.concatenate(
            [np.flatnonzero(buffer[i : i + piece] == 10) + i for i in range(0, len(buffer), piece)] or [[]]
        ).astype(np.int64)
        if len(buffer) and buffer[-1] != 10:
            ends = np.append(ends, len(buffer))
        starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
        if b"\r" in self.raw or len(ends) != len(self.frame) + 1 or (ends == starts).any():
            lines = self.echo_lines()
            return None if lines is None else (lines[0], (lines[i : i + step] for i in range(1, len(lines), step)))
        raw = self.raw

        def blocks():
            for i in range(1, len(ends), step):
                last = min(i + step, len(ends)) - 1
                yield bytes(raw[starts[i] : ends[last]]).decode("utf-8").split("\n")

        return bytes(raw[: ends[0]]).decode("utf-8"), blocks()


def _commas_back(frame: Columns) -> None:
    """A decimal-comma file's text columns (``--nominal``, a class) hold their number cells as written:
    the reader made each decimal comma a point for the numeric columns (``csv/decimal_comma.py``), and
    refuses a number written with a point in such a file, so each such cell had a comma (``4,0``, not the
    ``4.0`` the tree would print and the exports would compare the file's cells with)."""
    from dtcli.io.columns import TextColumn

    for name in frame.columns:
        column = frame[name]
        if isinstance(column, TextColumn) and any(MENDED.fullmatch(str(u)) for u in column.uniques):
            column.uniques[:] = [u.replace(".", ",") if MENDED.fullmatch(str(u)) else u for u in column.uniques]


def read_data(
    path: str, format_in: str | None = None, text_columns=(), limits: Limits = DEFAULT_LIMITS, *, fingerprint=True
) -> RawData:
    """Read ``path`` (``-`` for stdin) as CSV, ARFF or Parquet, by extension (or content) unless forced.

    ``text_columns`` are read as text even when they hold numbers (class
    labels, ``--nominal`` codes). ``limits`` bound the bytes and the rows read.
    ``fingerprint``: the SHA-256 of the bytes (a trained model records it), else "".
    """
    if format_in == "parquet" or (format_in is None and is_parquet(path)):
        return _read_parquet(path, text_columns, limits, fingerprint)
    got = read_input(path, DATA, limits.max_bytes, fingerprint=fingerprint)
    source, data, digest = got.source, got.data, got.sha256
    _refuse_document(source, data)
    kind = format_in or _guess_format(path, data)
    sep, raw, decimal = ",", None, "."
    if kind == "arff":
        text = data.decode("utf-8")
        del got, data  # the text alone from here on
        from dtcli.io.arff.reader import parse_arff  # here: CSV runs never load liac-arff's reader

        frame, declared, lines = parse_arff(text, source, limits.max_rows)
    else:
        notes: list[str] = []
        dialect = (limits.sep, limits.decimal, notes)
        frame, lines, sep, raw, decimal = parse_csv(data, source, path, set(text_columns), limits.max_rows, *dialect)
        declared = {}
        _tell(notes)
        if decimal == ",":
            _commas_back(frame)
    if len(frame.columns) == 0:
        raise DataError(f"{source}: no columns found; the first line must name the columns")
    if lines is not None and len(lines) != len(frame):
        lines = None
    return RawData(frame, source, digest, declared=declared, lines=lines, raw=raw, sep=sep, decimal=decimal)


def _tell(notes: list[str]) -> None:
    """Each note (what CSV detection assumed) on stderr, as a warning."""
    if notes:
        from dtcli.notes import tell

        for note in notes:
            tell(note)


def is_parquet(path: str) -> bool:
    """Whether DATA at ``path`` is Parquet: a directory, a ``.parquet`` name, or a regular file that
    starts with the magic bytes ``PAR1`` (a text file cannot: ``P`` is no byte-order mark or gzip mark)."""
    if path == "-" or path.endswith(".gz"):
        return False
    if path.lower().endswith(".parquet"):
        return True
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return True
        if not stat.S_ISREG(mode):
            return False  # a named pipe is not read ahead: its first bytes would be lost
        with open(path, "rb") as handle:
            return handle.read(len(PARQUET_MAGIC)) == PARQUET_MAGIC
    except OSError:
        return False  # the CSV reader reports what is wrong with the path


def _read_parquet(path: str, text_columns, limits: Limits, fingerprint: bool) -> RawData:
    from dtcli.io.parquet.reader import read_parquet  # here: CSV runs never load the Parquet reader

    if path == "-":
        raise DataError("<stdin>: Parquet cannot be read from standard input; give a .parquet file or a directory")
    got = read_parquet(path, text_columns, limits.max_bytes, limits.max_rows, fingerprint)
    if len(got.frame.columns) == 0:
        raise DataError(f"{got.source}: no columns found; a Parquet file must have columns")
    return RawData(got.frame, got.source, got.sha256, declared=got.declared)


DOCUMENT = re.compile(rb'"format"\s*:\s*"(dtree-[a-z-]+)"')  # the key every JSON document of dtree's holds


def _refuse_document(source: str, data) -> None:
    """A DataError for one of dtree's JSON documents (a model, rules, a report) given as DATA."""
    head = bytes(data[:400])
    found = DOCUMENT.search(head) if head.lstrip().startswith(b"{") else None
    if found is None:
        return
    kind = found.group(1).decode()
    model = {"dtree-model": "a model", "dtree-rules": "a rule set"}.get(kind)
    raise DataError(
        f"{source}: is {model or f'a {kind} document'} (JSON written by dtree), not a table of data; give a "
        "CSV, ARFF or Parquet file as DATA" + (" (a model goes where a command reads MODEL)" if model else "")
    )


def _guess_format(path: str, data) -> str:
    name = path[:-3] if path.endswith(".gz") else path
    if name.lower().endswith(".arff"):
        return "arff"
    if path == "-":
        start = LEADING_SPACE.match(data).end()
        head = bytes(data[start : start + 200]).lower()
        if head.startswith((b"%", b"@relation")):
            return "arff"
    return "csv"
