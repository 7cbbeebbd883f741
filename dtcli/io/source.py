"""Read one input's bytes: a file, standard input or a named pipe, gzip-compressed or not, within a size bound.

Contract: ``read_input(path, kind, max_bytes)`` returns the bytes of ``path`` (a bytearray)
(``-``: standard input), decompressed when a data file's name ends in ``.gz``,
without a leading UTF-8 byte-order mark, checked as text (``textcheck``), with
the SHA-256 of the bytes as read (mark included; "" with ``fingerprint=False``, for a
command that records no model: hashlib's import alone costs 2 ms); or raises DataError with one
line naming the file. Reading stops as soon as the input passes ``max_bytes``
(0: no bound): at most ``max_bytes + CHUNK`` bytes are ever held, whatever the
input (a gzip bomb, ``/dev/zero`` on standard input). A named pipe that no
writer opens within ``FIFO_WAIT`` seconds is refused, as are directories,
devices and sockets.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import sys
import time
from typing import NamedTuple

from dtcli.errors import DataError
from dtcli.io.textcheck import TextCheck, lone_surrogate_escape

CHUNK = 1 << 20  # bytes read at a time from a stream
FIFO_WAIT = 2.5  # seconds a named pipe may wait for its writer
FIFO_POLL = 0.02
DEFAULT_MAX_BYTES = 1 << 30
DEFAULT_MAX_ROWS = 50_000_000
BOM = codecs.BOM_UTF8
GZIP_MAGIC = b"\x1f\x8b"


class Limits(NamedTuple):
    """How much a command reads: ``max_bytes`` of any one input (after decompression), ``max_rows``
    of a table; 0 means no bound. And how it reads a CSV table: the separator ``sep`` and the
    decimal mark ``decimal`` given (--sep, --decimal; None: detected, ``csv_dialect``)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    max_rows: int = DEFAULT_MAX_ROWS
    sep: str | None = None
    decimal: str | None = None


DEFAULT_LIMITS = Limits()


class Kind(NamedTuple):
    """What an input is, for messages: its ``name``, what to ``give`` instead, and whether it is
    ``data`` (may be gzip-compressed; a text problem is named by its line) or ``json``."""

    name: str
    give: str
    data: bool = False
    json: bool = False


DATA = Kind("file", "a .csv, .arff or .parquet file", data=True)
MODEL = Kind("model file", "a model file", json=True)
COSTS = Kind("cost file", "a cost file")


class Input(NamedTuple):
    """An input as read: ``data`` (no byte-order mark; a bytearray, so that readers may mend it in
    place) and the SHA-256 of the bytes read."""

    source: str
    data: bytearray
    sha256: str


def format_size(size: int) -> str:
    """``size`` bytes for a message: 1 GiB, 512 MiB, 100 bytes."""
    for unit, name in ((1 << 40, "TiB"), (1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= unit and size % unit == 0:
            return f"{size // unit} {name}"
    return f"{size:,} bytes"


def too_many_rows(source: str, max_rows: int) -> DataError:
    """The error for a table of more than ``max_rows`` rows."""
    rows = "row" if max_rows == 1 else "rows"
    return DataError(f"{source}: more than {max_rows:,} {rows} (--max-rows); raise --max-rows or split the file")


def read_text(path: str, kind: Kind = COSTS, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text of ``path`` (``-``: standard input), read as ``read_input`` reads it; for JSON (a
    model), without an escape that stands for half a character."""
    got = read_input(path, kind, max_bytes)
    data = got.data
    at = lone_surrogate_escape(data) if kind.json else None  # on the bytes: the escape and line ends are ASCII
    if at is not None:
        line = data.count(b"\n", 0, at) + 1
        raise DataError(
            f"{got.source}, line {line}: {data[at : at + 6].decode()} is half of a "
            f"character (a lone surrogate), which no file can hold; the {kind.name} is damaged"
        )
    return data.decode("utf-8")


def read_input(path: str, kind: Kind = DATA, max_bytes: int = DEFAULT_MAX_BYTES, *, fingerprint: bool = True) -> Input:
    """The bytes of ``path`` (see the module's contract)."""
    source = "<stdin>" if path == "-" else path
    stream, size = _open(path, source, kind)
    reading = _Reading(source, kind, max_bytes, fingerprint)
    try:
        if kind.data and path.endswith(".gz"):
            data = reading.gzip(stream)
        elif size is not None:
            data = reading.regular(stream, size)
        else:
            data = reading.stream(stream, bytearray())
    except OSError as exc:
        raise DataError(f"{source}: cannot read: {exc.strerror or exc}") from None
    finally:
        if path != "-":
            stream.close()
    return Input(source, data, reading.digest.hexdigest())


def _open(path: str, source: str, kind: Kind):
    """A binary stream on ``path`` and its size when it is a regular file (else None)."""
    if path == "-":
        return sys.stdin.buffer, None
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISREG(mode):
            handle = open(path, "rb", buffering=0)  # noqa: SIM115 - closed by read_input
            return handle, os.fstat(handle.fileno()).st_size
        if stat.S_ISFIFO(mode):
            return _open_pipe(path, source), None
    except (FileNotFoundError, NotADirectoryError):
        raise DataError(f"{source}: no such {kind.name}; check the path") from None
    except OSError as exc:
        raise DataError(f"{source}: cannot read: {exc.strerror}") from None
    if stat.S_ISDIR(mode):
        raise DataError(f"{source}: is a directory; give {kind.give}")
    what = "a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode) else "a socket"
    raise DataError(f"{source}: {what}, not a file; give {kind.give}")


def _open_pipe(path: str, source: str):
    """A named pipe, once a writer is there: a read that would block (or returns data) shows one;
    a read that returns nothing means none (yet). Without a writer for FIFO_WAIT seconds: an error."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    deadline = time.monotonic() + FIFO_WAIT
    while True:
        try:
            first = os.read(fd, CHUNK)
        except BlockingIOError:
            first = b""
            break
        if first:
            break
        if time.monotonic() > deadline:
            os.close(fd)
            raise DataError(f"{source}: a named pipe with no writer; nothing to read")
        time.sleep(FIFO_POLL)
    os.set_blocking(fd, True)
    return _Prefixed(os.fdopen(fd, "rb", buffering=0), first)


class _Prefixed(io.RawIOBase):
    """A stream that first returns ``first`` (bytes already read), then reads ``raw``."""

    def __init__(self, raw, first: bytes):
        self.raw, self.first = raw, first

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        if self.first:
            n = min(len(buffer), len(self.first))
            buffer[:n], self.first = self.first[:n], self.first[n:]
            return n
        return self.raw.readinto(buffer)

    def close(self) -> None:
        self.raw.close()
        super().close()


class BufferReader(io.RawIOBase):
    """A binary stream over bytes or a bytearray, without copying them (``io.BytesIO`` copies a bytearray)."""

    def __init__(self, buffer):
        self.view, self.position = memoryview(buffer), 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), len(self.view) - self.position)
        buffer[:n] = self.view[self.position : self.position + n]
        self.position += n
        return n


class NoDigest:
    """A digest of nothing: what an input read without a fingerprint is given."""

    def update(self, data) -> None:
        pass

    def hexdigest(self) -> str:
        return ""


class _Reading:
    """One input being read: the bound, the text check and the digest (a NoDigest without ``fingerprint``)."""

    def __init__(self, source: str, kind: Kind, max_bytes: int, fingerprint: bool = True):
        self.source, self.max_bytes = source, max_bytes
        self.check = TextCheck(source, kind.name, lines=kind.data, inner_bom=kind.data)
        if fingerprint:
            import hashlib  # here: hashlib loads OpenSSL (2 ms), and only a trained model records the digest

            self.digest = hashlib.sha256()
        else:
            self.digest = NoDigest()

    def too_large(self):
        return DataError(
            f"{self.source}: more than {format_size(self.max_bytes)} of input (--max-bytes); "
            "raise --max-bytes or split the file"
        )

    def regular(self, handle, size: int) -> bytearray:
        """A regular file: its size is known, so it is read in one piece into a buffer of that size."""
        if self.max_bytes and size > self.max_bytes:
            raise self.too_large()
        skip = len(BOM) if handle.read(len(BOM)) == BOM else 0
        handle.seek(skip)
        self.digest.update(BOM[:skip])
        buffer = bytearray(max(size - skip, 0))
        view, filled = memoryview(buffer), 0
        while filled < len(buffer):
            n = handle.readinto(view[filled:])
            if not n:
                break
            filled += n
        view.release()
        del buffer[filled:]  # it shrank while being read
        return self.stream(handle, buffer, offset=skip)  # and whatever it grew by

    def stream(self, handle, buffer: bytearray, offset: int = 0) -> bytearray:
        """Read ``handle`` to its end, a chunk at a time, into ``buffer`` (which holds what was read
        before, after ``offset`` bytes of byte-order mark); stop past the bound."""
        self.check.skipped = offset > 0  # (then a mark at the buffer's start is a second one)
        self.digest.update(buffer)
        for start in range(0, len(buffer), CHUNK):
            self.check.feed(buffer, start, min(start + CHUNK, len(buffer)))
        while True:
            chunk = handle.read(CHUNK)
            if not chunk:
                break
            if self.max_bytes and offset + len(buffer) + len(chunk) > self.max_bytes:
                raise self.too_large()
            self.digest.update(chunk)
            start = len(buffer)
            buffer += chunk
            self.check.feed(buffer, start, len(buffer))
        self.check.close(buffer)
        if not offset and buffer[: len(BOM)] == BOM:
            del buffer[: len(BOM)]  # cheap: a bytearray drops its first bytes in place
        return buffer

    def gzip(self, handle):
        """A gzip-compressed input, decompressed a chunk at a time (so a bomb stops at the bound)."""
        import gzip  # here: most inputs are not compressed, and start-up counts (gain on small tables)
        import zlib

        magic = b""
        while len(magic) < len(GZIP_MAGIC) and (more := handle.read(len(GZIP_MAGIC) - len(magic))):
            magic += more
        if magic and magic != GZIP_MAGIC:
            raise DataError(f"{self.source}: not a readable gzip file; check that it is gzip-compressed")
        try:
            return self.stream(gzip.GzipFile(fileobj=_Prefixed(handle, magic), mode="rb"), bytearray())
        except EOFError:
            raise DataError(
                f"{self.source}: truncated gzip file; the compressed data ends early (get a complete copy)"
            ) from None
        except (gzip.BadGzipFile, zlib.error) as exc:
            reason = re.sub(r" 0x\w+ != 0x\w+", "", str(exc)).split(" (", 1)[0].split(": ", 1)[-1].rstrip(".")
            raise DataError(f"{self.source}: corrupt gzip file ({reason}); get an undamaged copy") from None
