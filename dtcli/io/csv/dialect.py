"""How a CSV file is written: its separator, decimal mark and Excel ``sep=`` first line, as given or detected.

Contract: ``detect(data, path, source, sep, decimal)`` looks at the first
``SAMPLE_BYTES`` of the file's bytes (never more: detection costs the same
whatever the file's size) and returns a ``Dialect``. Given values (``--sep``,
``--decimal``) win; an Excel ``sep=X`` first line sets the separator and is
skipped. Otherwise the separator is the one of , tab ; | that splits every
sampled line (quotes respected) into the same number of fields, more than one;
when two do, the first in that order is taken with a ``note`` (one line for
stderr saying what was assumed and how to choose); when none does (a ragged
file, whose reader then names the bad line), the first that splits the header.
A ``.tsv`` name means tab. The decimal mark is ``,`` when the file is not
separated by commas and its sampled cells hold numbers written with a decimal
comma (``5,1``) and none with a decimal point; both kinds: ``.`` with a note.

``csv_decimal`` then makes a decimal-comma file's numbers readable.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from dtcli.errors import DataError

SEPARATORS = (",", "\t", ";", "|")
NAMES = {",": "','", "\t": "tab", ";": "';'", "|": "'|'"}
SAMPLE_BYTES = 1 << 16
SAMPLE_LINES = 500
THOUSANDS = re.compile(r"[+-]?[1-9][0-9]{0,2},[0-9]{3}")  # 2,752: a thousands separator's, or a decimal comma's?
POINT_THOUSANDS = re.compile(r"[+-]?[1-9][0-9]{0,2}\.[0-9]{3}")  # 1.200 in a German export: 1200 or 1.2?
GROUPED_MIN = 3  # distinct such cells before the note
EXCEL_LINE = re.compile(rb'[ \t]*"?sep=([^\r\n"])"?[ \t]*(?=\r\n|\r|\n|$)', re.IGNORECASE)
# a cell (quotes and spaces around it allowed) between separators or line ends; %(sep)s: the separator
START = rb'(?<![^%(sep)s\r\n])( *"?[+-]?'
END = rb'(?:[eE][+-]?[0-9]+)?"? *)(?![^%(sep)s\r\n])'
COMMA_CELL = START + rb"[0-9]*),([0-9]+" + END  # 5,1 (the groups around the comma)
POINT_CELL = START + rb"[0-9]*\.[0-9]+" + END  # 5.1
WHOLE_CELL = START + rb"[1-9][0-9]{0,2}" + END  # 850
GROUPED_CELL = START + rb"[0-9]{1,3}(?:\.[0-9]{3})+(?:,[0-9]+)?" + END  # 1.234,5 and 1.234.567


class Dialect(NamedTuple):
    """How the file is read: ``sep``, ``decimal`` (``.`` or ``,``), ``skip`` (the bytes of an Excel
    ``sep=`` first line, its line end aside; 0 without one) and a ``note`` for stderr (or None)."""

    sep: str = ","
    decimal: str = "."
    skip: int = 0
    note: str | None = None

    @property
    def plain(self) -> bool:
        """Whether the file reads as before detection existed: no decimal comma, no sep= line, no note."""
        return self.decimal == "." and not self.skip and self.note is None


def name(sep: str) -> str:
    """A separator as messages name it: ',' or tab."""
    return NAMES.get(sep, repr(sep))


def detect(data, path: str, source: str, sep: str | None = None, decimal: str | None = None) -> Dialect:
    """The file's dialect (see the module), from the start of its bytes ``data``."""
    excel = EXCEL_LINE.match(data, 0, 64)
    skip = excel.end() if excel else 0
    lines = _sample(data, skip)
    notes = []
    if sep is None and excel:
        sep = excel.group(1).decode("utf-8", "replace")
        if lines and _widths(lines[:1], sep)[:1] == [1]:
            guess, _ = _separator(lines, source)
            if _widths(lines[:1], guess)[:1] != [1]:
                raise DataError(
                    f"{source}: its first line, {'sep=' + sep!r}, does not split the header line into columns; "
                    f"the file seems separated by {name(guess)}: give --sep {name(guess)}"
                )
    if sep is None and path.lower().removesuffix(".gz").endswith(".tsv"):
        sep = "\t"
    if sep is None:
        sep, note = _separator(lines, source)
        notes += [note] if note else []
    elif lines and not excel and _widths(lines[:1], sep)[:1] == [1]:
        guess, _ = _separator(lines, source)
        if _widths(lines[:1], guess)[:1] != [1]:
            raise DataError(
                f"{source}: --sep {name(sep)} does not split the header line into columns; the file "
                f"seems separated by {name(guess)}: give --sep {name(guess)}, or leave --sep out"
            )
    if decimal is None:
        decimal, note = _decimal(lines[1:], sep, source)
        notes += [note] if note else []
    if decimal == sep:
        raise DataError(f"{source}: the decimal mark and the separator are both {name(sep)}; give --sep or --decimal")
    return Dialect(sep, decimal, skip, " ".join(notes) or None)


def _sample(data, skip: int) -> list[str]:
    """The first lines of the file (at most SAMPLE_LINES, not blank), whole lines only unless the
    first alone is longer than the sample."""
    piece = bytes(data[skip : skip + SAMPLE_BYTES])
    if len(data) > skip + SAMPLE_BYTES:
        cut = max(piece.rfind(b"\n"), piece.rfind(b"\r"))
        piece = piece[:cut] if cut > 0 else piece
    text = piece.decode("utf-8", "ignore")
    return [line for line in text.splitlines() if line.strip()][:SAMPLE_LINES]


def _widths(lines: list[str], sep: str) -> list[int]:
    """The fields of each record in ``lines`` split at ``sep`` (quotes respected when there are any)."""
    if not any('"' in line for line in lines):
        return [line.count(sep) + 1 for line in lines]
    import csv  # here: most files have no quotes
    import io

    try:
        records = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=sep, strict=False))
    except csv.Error:
        return [line.count(sep) + 1 for line in lines]
    return [len(record) for record in records if record]


def _separator(lines: list[str], source: str) -> tuple[str, str | None]:
    """The separator that splits every line alike into the most fields (a note when two split them alike),
    else the first to split the header. (A ; file whose header holds a comma, "Income (k, net);Age;Class",
    with a decimal comma a row, splits evenly by both: ; gives the fields.)"""
    if not lines:
        return ",", None
    even = []
    for sep in SEPARATORS:
        if sep in lines[0]:
            widths = _widths(lines, sep)
            if widths[0] > 1 and len(set(widths)) == 1:
                even.append(sep)
    fields = {sep: _widths(lines[:1], sep)[0] for sep in even}
    even.sort(key=lambda sep: -fields[sep])  # (stable: the first of as many fields)
    if len(even) > 1:
        others = " and ".join(name(sep) for sep in even[1:])
        verb = "splits" if len(even) == 2 else "split"
        alike = all(fields[sep] == fields[even[0]] for sep in even)
        into = "into as many fields" if alike else f"alike, into fewer fields than the {fields[even[0]]} read"
        return even[0], (
            f"{source}: read as separated by {name(even[0])}, but {others} also {verb} every line {into}; "
            f"give --sep {name(even[1])} if that is the separator"
        )
    if even:
        return even[0], None
    for sep in SEPARATORS:
        if sep in lines[0] and _widths(lines[:1], sep)[0] > 1:
            return sep, None
    return ",", None


def _patterns(sep: str, *patterns: bytes) -> list[re.Pattern]:
    escaped = re.escape(sep.encode("utf-8"))
    return [re.compile(pattern % {b"sep": escaped}) for pattern in patterns]


def _decimal(rows: list[str], sep: str, source: str) -> tuple[str, str | None]:
    """``,`` when the sampled cells hold numbers with a decimal comma (or grouped 1.234,5) and none
    with a point (the file not separated by commas), else ``.``; a note when they hold both."""
    if sep == ",":
        return ".", None
    if not any("," in row for row in rows):
        return ".", _point_grouping_note(rows, sep, source)
    text = "\n".join(rows).encode("utf-8")
    comma, point, grouped = _patterns(sep, COMMA_CELL, POINT_CELL, GROUPED_CELL)
    found = comma.search(text) or next((m for m in grouped.finditer(text) if b"," in m.group()), None)
    if found is None:
        return ".", None
    dotted = None
    if b"." in text:  # (a scan with look-behinds costs: most such files hold no point at all)
        dotted = point.search(text) or next((m for m in grouped.finditer(text) if b"," not in m.group()), None)
    if dotted is None:
        return ",", _grouping_note(comma, text, source)
    one, other = (match.group().decode("utf-8").strip(' "') for match in (found, dotted))
    return ".", (
        f"{source}: some numbers have a decimal comma ({one}), others a decimal point ({other}): read with "
        "'.' as the decimal mark, so those with a comma are text; give --decimal , to read commas (a point is then "
        "refused)"
    )


def _point_grouping_note(rows: list[str], sep: str, source: str) -> str | None:
    """A note for a file not separated by commas, without a decimal comma, whose every sampled number
    written with a point has three digits after it (``1.200``: one to three digits, not a lone 0, then
    exactly three; at least ``GROUPED_MIN`` such cells) beside whole numbers of at most three digits written
    without one, as a point that groups thousands writes them (a German export of whole numbers: 850 and
    1.200): a decimal point reads 1.200 as 1.2."""
    if not any("." in row for row in rows):
        return None
    point, small = _patterns(sep, POINT_CELL, WHOLE_CELL)
    text = "\n".join(rows).encode("utf-8")
    cells = {match.group().decode("utf-8").strip(' "') for match in point.finditer(text)}
    if len(cells) < GROUPED_MIN or not all(POINT_THOUSANDS.fullmatch(cell) for cell in cells):
        return None
    if small.search(text) is None:  # (three decimals alone, 1.125 and 2.250: measurements as likely)
        return None
    return (
        f"{source}: read with '.' as the decimal mark, but every number written with a point has three digits "
        f"after it ({min(cells)}), as a thousands separator writes them; if the point groups thousands, write the "
        "numbers without it (a decimal point reads 1.200 as 1.2)"
    )


def _grouping_note(comma: re.Pattern, text: bytes, source: str) -> str | None:
    """A note when every sampled number written with a comma looks like a thousands separator's (``2,752``:
    one to three digits, not a lone 0, then exactly three; at least ``GROUPED_MIN`` such cells), which the
    decimal comma reads as 2.752."""
    cells = {match.group().decode("utf-8").strip(' "') for match in comma.finditer(text)}
    if len(cells) < GROUPED_MIN or not all(THOUSANDS.fullmatch(cell) for cell in cells):
        return None
    shown = min(cells)
    return (
        f"{source}: read with ',' as the decimal mark, but every number written with a comma has three digits "
        f"after it ({shown}), as a thousands separator writes them; if the comma groups thousands, write the "
        "numbers without it (a decimal comma reads 2,752 as 2.752)"
    )
