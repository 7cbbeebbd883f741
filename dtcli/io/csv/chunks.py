"""Read a plain CSV file a chunk of rows at a time (``predict`` to a file: memory bounded by the chunk, not the file).

Contract: ``csv_chunks(path, wanted, texts, limits)`` yields ``Chunk``s in file order: each chunk's
rows as a RawData (the columns ``read.read_data`` would give for those rows, for the columns in
``wanted`` and those read as numbers) and its lines as written, or raises ``NotPlain``. NotPlain is
no user error: it means "read this file whole" (``read.read_data``), which reports whatever is wrong
with the messages it always gives; the caller drops what it made of the chunks so far.

Only plain files are read in chunks: a regular file (not standard input, not gzip) of more than
``csv_reader.PLAIN_MAX`` bytes (smaller ones are read in Python, not by pandas), within the limits,
UTF-8 without any byte-order mark, a plain dialect (``csv_dialect``: no decimal comma, no Excel ``sep=``
line, nothing detection is unsure of), LF line ends (the last may be missing), no quotes, no NUL, no
blank lines, every line as wide as the header, and columns named once. A column's kind follows
``csv_reader``'s rule: numbers when its first ``SAMPLE_ROWS`` cells are (and it is not in
``texts``); a file where a later cell of such a column is not a number is read whole (there, every
column becomes text). So every column the file would hold as numbers is parsed, wanted or not.
"""

from __future__ import annotations

import os
import stat
import warnings
from dataclasses import dataclass

import numpy as np

from dtcli.io.columns import Columns, NumberColumn, TextColumn
from dtcli.io.csv.cells import MISSING_CELLS, NUMERIC_MISSING, SAMPLE_ROWS, looks_numeric
from dtcli.io.csv.dialect import detect
from dtcli.io.csv.reader import PLAIN_MAX
from dtcli.io.pandas_import import pandas
from dtcli.io.read import RawData
from dtcli.io.source import BufferReader, Limits
from dtcli.model.colnames import aliases, clash

CHUNK_BYTES = 4 << 20  # bytes of lines read at once (about 40,000 rows of 20 columns)
LF = 10


class NotPlain(Exception):
    """The file is not one ``csv_chunks`` reads: read it whole."""


@dataclass
class Chunk:
    """Some consecutive rows: ``raw`` (as ``read_data`` reads them; ``lines``: their file lines),
    the file's ``header`` line and column ``names``, about how many rows the file holds
    (``estimate``, from its size), the rows' bytes as written (``body``, UTF-8) and where each
    row's line ends in it (``ends``: its line feed, or the end of ``body`` when the file's last
    line has none)."""

    raw: RawData
    header: str
    names: list[str]
    estimate: int
    body: bytes
    ends: np.ndarray

    @property
    def lines(self) -> list[str]:
        """The text of each row, as written, without its line end."""
        lines = self.body.decode("utf-8").split("\n")
        return lines[:-1] if lines[-1] == "" else lines


def csv_chunks(path: str, wanted, texts, limits: Limits, chunk_bytes: int | None = None):
    """The chunks of ``path`` (see the module's contract), of about ``chunk_bytes`` (default ``CHUNK_BYTES``)."""
    handle = _open(path, limits)
    with handle:
        reader = _Reader(path, handle, set(wanted), set(texts), limits)
        yield from reader.chunks(max(chunk_bytes or CHUNK_BYTES, 1 << 16))


def _open(path: str, limits: Limits):
    if path == "-" or path.endswith(".gz"):
        raise NotPlain
    try:
        handle = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by csv_chunks
    except OSError:
        raise NotPlain from None
    info = os.fstat(handle.fileno())
    if (
        not stat.S_ISREG(info.st_mode)
        or info.st_size <= PLAIN_MAX
        or (limits.max_bytes and info.st_size > limits.max_bytes)
    ):
        handle.close()
        raise NotPlain
    return handle


class _Reader:
    """One file being read: its header, the kind of each column, the rows so far."""

    def __init__(self, path: str, handle, wanted: set, texts: set, limits: Limits):
        self.path, self.handle, self.wanted, self.texts, self.limits = path, handle, wanted, texts, limits
        self.rows, self.line, self.size = 0, 1, 0  # rows read, the file line of the last one, bytes read
        self.header_line = ""
        self.file_size = os.fstat(handle.fileno()).st_size
        self.names: list[str] = []
        self.numeric: list[int] = []  # positions of the columns read as numbers
        self.text: list[int] = []  # positions of the wanted columns read as text

    def pieces(self, chunk_bytes: int):
        """The file's bytes cut after line ends, at least ``chunk_bytes`` a piece (the last may end
        without one); the first piece holds the header and ``SAMPLE_ROWS`` rows (or the whole file)."""
        rest = b""
        need = 0
        while True:
            more = self.handle.read(chunk_bytes)
            self.size += len(more)
            if self.limits.max_bytes and self.size > self.limits.max_bytes:
                raise NotPlain
            data = rest + more
            if not more:
                if data:
                    yield data
                return
            cut = data.rfind(b"\n") + 1
            if not need and (cut == 0 or data.count(b"\n", 0, cut) <= SAMPLE_ROWS):
                rest = data  # the first piece: the header and the sample at least
                continue
            need = 1
            rest = data[cut:]
            yield data[:cut]

    def chunks(self, chunk_bytes: int):
        first = True
        for piece in self.pieces(chunk_bytes):
            text = _checked(piece)
            body = piece
            if first:
                lines = text.split("\n", SAMPLE_ROWS + 1)  # the header, the sample, the rest
                sample = lines[1 : SAMPLE_ROWS + 1]
                if len(lines) <= SAMPLE_ROWS + 1 and sample and sample[-1] == "":
                    sample.pop()  # after the last line end of a piece that is all sample
                self.start(piece, lines[0], sample)
                body = piece[piece.index(b"\n") + 1 :] if b"\n" in piece else b""
                first = False
            if not body:
                continue
            raw, ends = self.rows_of(body)
            estimate = int(self.file_size * len(ends) / len(body))
            yield Chunk(raw, self.header_line, self.names, estimate, body, ends)

    def start(self, piece: bytes, header: str, sample: list[str]) -> None:
        """Read the header line and decide each column's kind from the sample rows (``piece``: the
        first bytes, for the dialect: one that is not plain is read whole)."""
        if not header.strip() or '"' in header:
            raise NotPlain
        dialect = detect(piece, self.path, self.path, self.limits.sep, self.limits.decimal)
        if not dialect.plain:
            raise NotPlain
        self.sep = dialect.sep
        self.header_line = header
        self.names = [name.strip() for name in header.split(self.sep)]
        if "" in self.names or len(set(self.names)) != len(self.names) or clash(self.names):
            raise NotPlain
        self.texts, self.wanted = aliases(self.texts, self.names), aliases(self.wanted, self.names)
        cells = [line.split(self.sep) for line in sample]
        if any(len(row) != len(self.names) for row in cells):
            raise NotPlain
        columns = list(zip(*cells)) if cells else [()] * len(self.names)
        for i, name in enumerate(self.names):
            if name not in self.texts and looks_numeric([cell.lstrip(" ") for cell in columns[i]]):
                self.numeric.append(i)
            elif name in self.wanted:
                self.text.append(i)

    def rows_of(self, body: bytes) -> tuple[RawData, np.ndarray]:
        """The RawData of the rows in ``body`` (not empty), checked as plain, and where their lines end."""
        width = len(self.names)
        raw = np.frombuffer(body, dtype=np.uint8)
        ends = np.flatnonzero(raw == LF)
        if body[-1] != LF:
            ends = np.append(ends, len(raw))
        starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64)
        if (ends == starts).any():
            raise NotPlain  # a blank line
        seps = np.flatnonzero(raw == ord(self.sep))
        counts = np.diff(np.searchsorted(seps, np.concatenate([[0], ends])))
        if (counts != width - 1).any():
            raise NotPlain  # a line wider or narrower than the header
        n = len(ends)
        self.rows += n
        if self.limits.max_rows and self.rows > self.limits.max_rows:
            raise NotPlain
        columns = self.parse(body, n)
        first = self.line + 1
        self.line += n
        frame = Columns({self.names[i]: columns[i] for i in sorted(columns)}, n)
        numbers = np.arange(first, first + n, dtype=np.int64)
        return RawData(frame, self.path, "", lines=numbers, sep=self.sep), ends

    def parse(self, body: bytes, rows: int) -> dict:
        """The chunk's columns by position: numbers (float64) and wanted text (codes), by pandas' C parser."""
        pd = pandas()  # here: small files never import pandas

        keys = [f"c{i}" for i in range(len(self.names))]
        # (skipping the spaces that start cells costs the tokenizer a third of its time: only where there are spaces)
        used = sorted(self.numeric + self.text)
        options = {
            "sep": self.sep, "index_col": False, "skipinitialspace": b" " in body, "engine": "c",
            "keep_default_na": False, "header": None, "names": keys, "usecols": [keys[i] for i in used],
            "encoding": "utf-8",
            "dtype": {keys[i]: (np.float64 if i in self.numeric else "category") for i in used},
            "na_values": {keys[i]: (NUMERIC_MISSING if i in self.numeric else MISSING_CELLS) for i in used},
        }  # fmt: skip
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pd.errors.ParserWarning)
                frame = pd.read_csv(BufferReader(body), **options)
        except (ValueError, pd.errors.ParserError, pd.errors.EmptyDataError):
            raise NotPlain from None  # a later cell of a numeric column that is not a number, among others
        if len(frame) != rows:
            raise NotPlain
        # categories that look like booleans or numbers are made into those ("TRUE" and "true"
        # become True): such columns are read again as plain text, as ``csv_pandas`` does
        retyped = [i for i in self.text if pd.api.types.infer_dtype(frame[keys[i]].cat.categories, skipna=True)
                   not in ("string", "empty")]  # fmt: skip
        if retyped:
            missing = {keys[i]: MISSING_CELLS for i in retyped}
            options.update(usecols=[keys[i] for i in retyped], dtype=str, na_values=missing)
            text = pd.read_csv(BufferReader(body), **options)
            for i in retyped:
                frame[keys[i]] = text[keys[i]]
        return {i: _column(frame[keys[i]], i in self.numeric) for i in used}


def _column(series, numeric: bool):
    if numeric:
        return NumberColumn(series.to_numpy(dtype=np.float64))
    pd = pandas()
    codes, uniques = pd.factorize(series, use_na_sentinel=True)  # first appearance, -1 missing
    return TextColumn(codes.astype(np.int32), [str(u) for u in uniques])


def _checked(piece: bytes) -> str:
    """The text of ``piece``, or NotPlain: not UTF-8, a NUL, a byte-order mark, a quote or a CR."""
    if b"\0" in piece or b'"' in piece or b"\r" in piece:
        raise NotPlain
    try:
        text = piece.decode("utf-8")
    except UnicodeDecodeError:
        raise NotPlain from None
    if not piece.isascii() and "\ufeff" in text:
        raise NotPlain
    return text
