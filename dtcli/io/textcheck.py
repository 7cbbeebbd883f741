"""Check an input's bytes as they are read: UTF-8 text, no NUL byte, and (data) no byte-order mark past the start.

Checked a chunk at a time, so ``/dev/urandom`` or ``/dev/zero`` on standard
input fails on its first chunk. A problem in a data file is named by its
line; line ends are LF, CRLF and a lone CR, as Python's ``csv`` module (with
``newline=''``) and a text editor count them (``line_of``).
"""

from __future__ import annotations

import codecs
import re

from dtcli.errors import DataError

BOM = codecs.BOM_UTF8
# what a file whose first bytes are these is, and what makes it a table dtree reads
KINDS = (
    (b"PK\x03\x04", "a spreadsheet workbook or a zip archive (.xlsx, .ods, .zip)"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel 97-2003 workbook (.xls)"),
    (codecs.BOM_UTF16_LE, "UTF-16 text"),
    (codecs.BOM_UTF16_BE, "UTF-16 text"),
)
KIND_FIX = {
    KINDS[0][1]: "not CSV: save the sheet as CSV UTF-8 (a spreadsheet's Save As), or unpack the file it holds",
    KINDS[1][1]: "not CSV: save the sheet as CSV UTF-8 (a spreadsheet's Save As)",
    KINDS[2][1]: "which dtree does not read: save it as UTF-8 (a spreadsheet's Save As: CSV UTF-8)",
}


def binary_kind(head: bytes) -> str | None:
    """What a file is by its first bytes when it is not UTF-8 text dtree reads, if told (else None)."""
    return next((kind for magic, kind in KINDS if head.startswith(magic)), None)


def line_of(buffer, position: int) -> int:
    """The line (from 1) holding byte ``position`` of ``buffer``: LF, CRLF and a lone CR each end a line."""
    ends = buffer.count(b"\n", 0, position) + buffer.count(b"\r", 0, position)
    return ends - buffer.count(b"\r\n", 0, position) + 1


class TextCheck:
    """Feed it the buffer as it grows (``feed(buffer, start, end)`` checks ``buffer[start:end]``),
    then ``close``; it raises DataError at the first problem."""

    def __init__(self, source: str, name: str, lines: bool, inner_bom: bool):
        self.source, self.name, self.lines, self.inner_bom = source, name, lines, inner_bom
        self.decoder = codecs.getincrementaldecoder("utf-8")("strict")
        self.skipped = False  # whether the reader skipped a mark before the buffer (then one at 0 is a second)

    def feed(self, buffer, start: int, end: int) -> None:
        chunk = buffer[start:end]
        problems = []
        nul = chunk.find(b"\0")
        if nul >= 0:
            problems.append((start + nul, "nul"))
        ascii = chunk.isascii()  # then no mark ends here, and nothing to decode unless a character began before
        if self.inner_bom and not ascii:
            mark = buffer.find(BOM, max(start - len(BOM) + 1, 0 if self.skipped else 1), end)
            if mark >= 0:
                problems.append((mark, "bom"))
        pending = len(self.decoder.getstate()[0])
        if pending or not ascii:
            try:
                self.decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                problems.append((start - pending + exc.start, "utf8"))
        if problems:
            raise self.error(buffer, *min(problems))

    def close(self, buffer) -> None:
        pending = len(self.decoder.getstate()[0])
        try:
            self.decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise self.error(buffer, len(buffer) - pending, "utf8") from None

    def error(self, buffer, position: int, problem: str) -> DataError:
        byte = buffer[position]
        kind = binary_kind(bytes(buffer[:8]))
        if kind is not None and self.lines:  # (a data file: say what it is and how to make it a table)
            return DataError(f"{self.source}: {kind}, {KIND_FIX[kind]}")
        if not self.lines:
            what = "not UTF-8 text" if problem == "utf8" else f"holds a byte 0x{byte:02x}"
            return DataError(f"{self.source}: not a {self.name}: {what}")
        where = f"{self.source}, line {line_of(buffer, position)}"
        if problem == "nul":
            return DataError(f"{where}: a NUL byte (0x00), so not a text file; save it as UTF-8 text")
        if problem == "bom":
            return self.mark_error(buffer, position)
        return DataError(f"{where}: not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8")

    def mark_error(self, buffer, position: int) -> DataError:
        """A byte-order mark past the first: right after it (a second mark), or further on, named by
        its line and character (from 1; the first mark, which a reader skips, not counted)."""
        first = 0 if self.skipped else len(BOM) if buffer[: len(BOM)] == BOM else None
        if position == first:
            return DataError(
                f"{self.source}, line 1: a second byte-order mark (U+FEFF) at the start (were files joined, or "
                "the mark written twice?); remove it"
            )
        line = line_of(buffer, position)
        begins = max(buffer.rfind(b"\n", 0, position), buffer.rfind(b"\r", 0, position)) + 1
        if begins == 0 and first:
            begins = first
        character = len(bytes(buffer[begins:position]).decode("utf-8", "replace")) + 1
        return DataError(
            f"{self.source}, line {line}, character {character}: a byte-order mark (U+FEFF) inside the file "
            "(were files joined?); remove it"
        )


_ESCAPE = {  # a \\uD800-\\uDFFF escape, or text that reads like one after an escaped backslash
    str: re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}"),
    bytes: re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}"),
}
_BACKSLASH = 0x5C


def lone_surrogate_escape(text: str | bytes | bytearray) -> int | None:
    """Where a JSON text (str, or its UTF-8 bytes: then the position is a byte's) has a
    ``\\uD800``-``\\uDFFF`` escape that is not half of a surrogate pair (it would decode to a lone
    surrogate, which no writer can encode), or None. Found at C speed: the text is searched for
    ``\\u`` first (dtree writes one only for a control character), then only the escapes that may
    be surrogates are looked at."""
    is_str = isinstance(text, str)
    if ("\\u" if is_str else b"\\u") not in text:
        return None
    high = None  # (start, end) of a high surrogate escape waiting for its low half
    for found in _ESCAPE[str if is_str else bytes].finditer(text):
        start = found.start()
        if _escaped(text, start, is_str):
            continue  # an escaped backslash, then text ("\\\\ud800")
        code = int(found.group()[2:], 16)
        if high is not None:
            if start != high[1] or code < 0xDC00:
                return high[0]
            high = None
        elif code < 0xDC00:
            high = (start, found.end())
        else:
            return start
    return None if high is None else high[0]


def _escaped(text, start: int, is_str: bool) -> bool:
    """Whether the backslash at ``start`` is itself escaped: an odd run of backslashes before it."""
    run, at = 0, start - 1
    backslash = "\\" if is_str else _BACKSLASH
    while at >= 0 and text[at] == backslash:
        run, at = run + 1, at - 1
    return run % 2 == 1
