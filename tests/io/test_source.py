"""Reading an input's bytes (dtcli/io/source.py): bounded, gzip, named pipes, devices, text checks.

A stream longer than the bound must be refused after reading at most the
bound plus one chunk: checked with a file object that makes up its bytes on
demand and counts what was taken. Named pipes are real ones (``os.mkfifo``),
written by a thread; a pipe nobody opens must end with an error (the wait is
shortened for the tests).
"""

from __future__ import annotations

import gzip
import os
import socket
import sys
import threading
import time

import pytest

from dtcli.errors import DataError
from dtcli.io import source
from dtcli.io.read import read_data
from dtcli.io.source import CHUNK, MODEL, Limits, format_size, read_input, read_text

CSV = b"a,b\n1,x\n2,y\n"


class Endless:
    """A binary stream of ``line`` repeated forever that counts the bytes it hands out."""

    def __init__(self, line: bytes = b"1,2\n"):
        self.line, self.given = line, 0

    def read(self, n: int = -1) -> bytes:
        n = CHUNK if n is None or n < 0 else n
        data = (self.line * (n // len(self.line) + 1))[:n]
        self.given += len(data)
        return data


class FakeStdin:
    def __init__(self, stream):
        self.buffer = stream


def write(tmp_path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


# --- bounds ---------------------------------------------------------------------------------


def test_an_endless_stream_is_refused_after_the_bound(monkeypatch):
    stream = Endless(b"a,b\n")
    monkeypatch.setattr(sys, "stdin", FakeStdin(stream))
    with pytest.raises(DataError, match=r"^<stdin>: more than 3 MiB of input \(--max-bytes\); raise --max-bytes"):
        read_data("-", limits=Limits(max_bytes=3 << 20))
    assert stream.given <= (3 << 20) + CHUNK


def test_zeros_and_random_bytes_on_stdin_fail_on_the_first_chunk(monkeypatch):
    cases = [(b"\0", ", line 1: .*NUL byte"), (bytes(range(256)), ", line 1: .*NUL byte")]
    cases += [(b"\xc3\x28", ", line 1: .*not UTF-8")]
    cases += [(b"\xff\xfe", ": UTF-16 text, which dtree does not read")]  # (a UTF-16 byte-order mark first)
    for line, message in cases:
        stream = Endless(line)
        monkeypatch.setattr(sys, "stdin", FakeStdin(stream))
        with pytest.raises(DataError, match=rf"<stdin>{message}"):
            read_data("-", limits=Limits(max_bytes=0))  # no bound: the text check alone stops it
        assert stream.given <= CHUNK


def test_a_file_over_the_bound_is_refused_without_reading_it(tmp_path, monkeypatch):
    path = write(tmp_path, "big.csv", b"a,b\n" + b"1,2\n" * 100)
    with pytest.raises(DataError, match=r"big\.csv: more than 100 bytes of input \(--max-bytes\)"):
        read_data(path, limits=Limits(max_bytes=100))
    assert read_data(path, limits=Limits(max_bytes=404)).frame.n_rows == 100  # 404 bytes: not more
    assert read_data(path, limits=Limits(max_bytes=0)).frame.n_rows == 100  # 0: no bound


def test_the_bound_counts_decompressed_bytes(tmp_path):
    path = write(tmp_path, "bomb.csv.gz", gzip.compress(b"a,b\n" + b"1,2\n" * 2_000_000))
    assert os.path.getsize(path) < 100_000
    with pytest.raises(DataError, match=r"bomb\.csv\.gz: more than 1 MiB of input"):
        read_data(path, limits=Limits(max_bytes=1 << 20))


@pytest.mark.parametrize("rows", [2, 3])
@pytest.mark.parametrize("text", [b"a,b\n1,x\n\n2,y\n3,z\n", b'a,"b"\r1,"x\ry"\r\r2,y\r3,z\r'], ids=["plain", "quoted"])
def test_max_rows(tmp_path, text, rows):
    path = write(tmp_path, "t.csv", text)
    if rows == 2:
        with pytest.raises(DataError, match=r"t\.csv: more than 2 rows \(--max-rows\); raise --max-rows or split"):
            read_data(path, limits=Limits(max_rows=2))
    else:
        assert read_data(path, limits=Limits(max_rows=3)).frame.n_rows == 3


def test_max_rows_of_arff(tmp_path):
    text = b"@relation r\n@attribute a {x,y}\n@data\nx\n%c\n\ny\nx\n"
    with pytest.raises(DataError, match=r"more than 2 rows"):
        read_data(write(tmp_path, "t.arff", text), limits=Limits(max_rows=2))


def test_model_files_are_bounded_too(tmp_path):
    path = write(tmp_path, "m.json", b'{"format": "dtree-model"}' + b" " * 100)
    with pytest.raises(DataError, match=r"m\.json: more than 100 bytes of input"):
        read_text(path, MODEL, 100)


def test_sizes_are_named_plainly():
    assert [format_size(n) for n in (100, 1 << 10, 3 << 20, 1 << 30, 1536)] == [
        "100 bytes",
        "1 KiB",
        "3 MiB",
        "1 GiB",
        "1,536 bytes",
    ]


# --- gzip -----------------------------------------------------------------------------------


def test_a_truncated_gzip_file_is_one_error(tmp_path):
    whole = gzip.compress(b"a,b\n" + b"1,2\n" * 1000)
    for cut in (len(whole) - 4, len(whole) // 2, 12):
        with pytest.raises(DataError, match=r"t\.csv\.gz: truncated gzip file; "):
            read_data(write(tmp_path, "t.csv.gz", whole[:cut]))


def test_a_corrupt_gzip_file_is_one_error(tmp_path):
    whole = bytearray(gzip.compress(b"a,b\n" + b"1,2\n" * 1000))
    crc = bytearray(whole)
    crc[-6] ^= 0xFF  # the CRC of the data
    inner = bytearray(whole)
    inner[len(inner) // 2] ^= 0xFF
    for data in (crc, inner, bytes(whole) + b"garbage"):
        with pytest.raises(DataError, match=r"t\.csv\.gz: (corrupt gzip file|truncated gzip file)"):
            read_data(write(tmp_path, "t.csv.gz", bytes(data)))
    with pytest.raises(DataError, match=r"not a readable gzip file; check that it is gzip-compressed"):
        read_data(write(tmp_path, "t.csv.gz", CSV))


def test_gzip_members_and_fingerprint(tmp_path):
    two = gzip.compress(b"a,b\n1,x\n") + gzip.compress(b"2,y\n")
    raw = read_data(write(tmp_path, "t.csv.gz", two))
    assert raw.frame["b"].tolist() == ["x", "y"]
    assert raw.sha256 == read_data(write(tmp_path, "t.csv", b"a,b\n1,x\n2,y\n")).sha256


# --- named pipes, devices, directories -------------------------------------------------------


def writer(path, data: bytes, delay: float = 0.0, pieces: int = 1):
    """A thread that opens ``path`` for writing after ``delay`` seconds and writes ``data`` in ``pieces``."""

    def run():
        time.sleep(delay)
        with open(path, "wb", buffering=0) as handle:
            size = -(-len(data) // pieces)
            for start in range(0, len(data), size):
                handle.write(data[start : start + size])
                time.sleep(0.01)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_a_named_pipe_without_a_writer_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "FIFO_WAIT", 0.2)
    pipe = tmp_path / "p.csv"
    os.mkfifo(pipe)
    with pytest.raises(DataError, match=r"p\.csv: a named pipe with no writer; nothing to read$"):
        read_data(str(pipe))
    with pytest.raises(DataError, match=r"a named pipe with no writer"):
        read_text(str(pipe), MODEL)


@pytest.mark.parametrize(("delay", "pieces"), [(0.0, 1), (0.3, 1), (0.0, 5)], ids=["now", "later", "slowly"])
def test_a_named_pipe_with_a_writer_is_read(tmp_path, delay, pieces):
    pipe = tmp_path / "p.csv"
    os.mkfifo(pipe)
    thread = writer(pipe, CSV, delay, pieces)
    assert read_data(str(pipe)).frame["b"].tolist() == ["x", "y"]
    thread.join()


def test_an_anonymous_pipe_as_dev_fd_is_read():
    """What a shell's <(cat d.csv) gives: /dev/fd/N, a pipe whose writer writes and closes."""
    read_end, write_end = os.pipe()

    def run():
        time.sleep(0.1)
        os.write(write_end, CSV)
        os.close(write_end)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert read_data(f"/dev/fd/{read_end}").frame.n_rows == 2
    finally:
        thread.join()
        os.close(read_end)


def test_devices_directories_and_sockets_are_refused(tmp_path):
    device = r"^/dev/zero: a character device, not a file; give a \.csv, \.arff or \.parquet file$"
    with pytest.raises(DataError, match=device):
        read_data("/dev/zero")
    with pytest.raises(DataError, match=r"is a directory; give a model file"):
        read_text(str(tmp_path), MODEL)
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "s.csv"))
        with pytest.raises(DataError, match=r"s\.csv: a socket, not a file"):
            read_data(str(tmp_path / "s.csv"))
    finally:
        server.close()


# --- text ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"a,b\r1,x\r2,\xe9\r", r"line 3: not UTF-8 text \(byte 0xe9\)"),
        (b"a,b\n1,x\n\x002,y\n", r"line 3: a NUL byte"),
        (b"a,b\n1,x\n\xef\xbb\xbfa,b\n", r"line 3, character 1: a byte-order mark \(U\+FEFF\) inside the file"),
        (b"a,b\n1,\xc3", r"line 2: not UTF-8 text \(byte 0xc3\)"),  # cut in the middle of a character
    ],
    ids=["latin-1-cr", "nul", "inner-bom", "cut-character"],
)
def test_text_problems_name_their_line(tmp_path, data, message):
    with pytest.raises(DataError, match=message):
        read_data(write(tmp_path, "t.csv", data))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xef\xbb\xbf\xef\xbb\xbfa,b\n1,x\n", r"t\.csv, line 1: a second byte-order mark \(U\+FEFF\) at the start"),
        (b"\xef\xbb\xbfa,\xef\xbb\xbfb\n1,x\n", r"t\.csv, line 1, character 3: a byte-order mark \(U\+FEFF\) inside"),
        (b"a,\xef\xbb\xbfb\n1,x\n", r"t\.csv, line 1, character 3: a byte-order mark \(U\+FEFF\) inside"),
        ("a,b\n1,é\ufeffx\n".encode(), r"t\.csv, line 2, character 4: a byte-order mark \(U\+FEFF\) inside"),
    ],
    ids=["second-at-start", "in-header-after-first", "in-header", "after-a-wide-character"],
)
@pytest.mark.parametrize("how", ["file", "gzip", "pipe"])
def test_a_mark_past_the_first_is_refused_with_its_place(tmp_path, data, message, how):
    """One mark at the start is skipped; a second one (which would begin the first column's name) or
    one further on is refused, named by line and character, however the bytes arrive."""
    path = write(tmp_path, "t.csv.gz" if how == "gzip" else "t.csv", gzip.compress(data) if how == "gzip" else data)
    if how == "pipe":
        fifo = tmp_path / "t.csv"
        path = str(fifo)
        fifo.unlink()
        os.mkfifo(fifo)
        writer(path, data)
    with pytest.raises(DataError, match=message.replace("t\\.csv", "t\\.csv(\\.gz)?")):
        read_data(path)


def test_one_mark_at_the_start_is_skipped(tmp_path):
    raw = read_data(write(tmp_path, "t.csv", b"\xef\xbb\xbfa,b\n1,x\n"))
    assert list(raw.frame.columns) == ["a", "b"]


def test_a_character_split_across_chunks_is_fine(tmp_path):
    data = b"a,b\n" + b"1," + b"x" * (CHUNK - 7) + "é".encode() + b"\n"
    assert data[CHUNK - 1 : CHUNK + 1] == "é".encode()
    assert read_input(write(tmp_path, "t.csv", data)).data == bytearray(data)


@pytest.mark.parametrize(
    ("escapes", "lone"),
    [
        (r"\ud83d\ude00", False),
        (r"\uD83D\uDE00", False),
        (r"\\ud800", False),  # an escaped backslash, then text
        (r"\ud800", True),
        (r"\udc00", True),
        (r"\\\ud800", True),
        (r"\ud83d x\ude00", True),
        (r"\ud83d\ud83d\ude00", True),
    ],
)
def test_a_model_with_an_escape_for_half_a_character_is_refused(tmp_path, escapes, lone):
    """json.loads would turn it into a lone surrogate, which no writer can encode (rules -o crashed)."""
    path = write(tmp_path, "m.json", ('{"classes": [\n"' + escapes + '"]}\n').encode())
    if lone:
        with pytest.raises(DataError, match=r"m\.json, line 2: \\u\w{4} is half of a character \(a lone surrogate\)"):
            read_text(path, MODEL)
    else:
        assert read_text(path, MODEL).endswith('"]}\n')


def test_a_leading_byte_order_mark_is_dropped_but_fingerprinted(tmp_path):
    plain = read_input(write(tmp_path, "a.csv", CSV))
    marked = read_input(write(tmp_path, "b.csv", b"\xef\xbb\xbf" + CSV))
    assert marked.data == plain.data
    assert marked.sha256 != plain.sha256  # the fingerprint is of the bytes as read


def test_the_fingerprint_is_the_sha256_of_the_bytes_and_can_be_left_out(tmp_path):
    """sha256sum's digest of the file (mark included); without ``fingerprint`` none is computed
    (``dtree gain`` records no model, and hashlib's import alone costs it 2 ms of start-up)."""
    path = write(tmp_path, "b.csv", b"\xef\xbb\xbf" + CSV)
    assert read_input(path).sha256 == "d069e6aca3cbe722019f7de8b62d10635c0aea57a7ee3739285a56576ddb926e"
    unmarked = read_input(path, fingerprint=False)
    assert unmarked.sha256 == "" and unmarked.data == CSV
    assert read_data(path, fingerprint=False).sha256 == ""
