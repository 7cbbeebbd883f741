"""How a column's cells are written, where dtree reads them otherwise than a user may mean.

Contract: ``check_written(raw, name, attribute, strict, notes)`` reports a column read as nominal
whose cells are numbers or ISO 8601 dates with stray text (``stray_text``, ``stray_date``: at least
``STRAY_SHARE`` of its non-missing cells, none written with a leading zero as codes are), as a
warning appended to ``notes`` or, with ``strict``, a DataError naming the column, the first
offending line and its cell; or numbers written for people (``written_numbers``: thousands
separators, a percent or currency sign, a decimal comma past the lines the dialect read), as a
warning. ``numbers_of`` and ``parse_uniques`` read a column's cells as numbers, each distinct
cell once, with the missing markers (``MISSING_ANY``, and ``MISSING_NUMERIC`` where numbers are
meant) every reader shares.
"""

from __future__ import annotations

import re
import shlex

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import NumberColumn
from dtcli.io.csv.cells import parse_number
from dtcli.io.csv.dialect import SAMPLE_LINES
from dtcli.io.read import RawData
from dtcli.model.dates import ISO, parse_iso
from dtcli.model.table import NOMINAL, Attribute

STRAY_SHARE = 0.9  # numbers at least this share of a nominal column's cells: numbers with stray text
CODE = re.compile(r"[+-]?0[0-9]")  # a number written with a leading zero (007): the column holds codes
MISSING_ANY = ("", "?")
# how spreadsheets and other tools write a missing value that dtree does not read as one in a numeric
# column: a column of numbers and these alone is numbers with stray text at any share (the warning says
# to write them empty or ?), not categories without a word
MISSING_LOOKALIKES = frozenset({"n/a", "n.a.", "-", "--", "null", "#n/a", "none", "missing", "."})
MISSING_NUMERIC = ("NA", "NaN", "nan", "NAN", "N/A")


def numbers_of(column) -> tuple[np.ndarray, np.ndarray]:
    """The cells as float64 (NaN for missing) and a mask of cells that are not numbers.

    Text cells are parsed once per distinct value, not once per row.
    """
    if isinstance(column, NumberColumn):
        return column.values, np.zeros(len(column), dtype=bool)
    codes, uniques = column.factorize()
    numbers, bad_unique = parse_uniques(uniques, parse_number)
    return numbers[codes], bad_unique[codes]


def parse_uniques(uniques, parse) -> tuple[np.ndarray, np.ndarray]:
    """Each distinct cell's number by ``parse`` (NaN: missing, or not parsed) and a mask of the cells
    ``parse`` refused, one entry more than ``uniques``: the last, code -1, a missing cell."""
    numbers = np.full(len(uniques) + 1, np.nan)
    bad_unique = np.zeros(len(uniques) + 1, dtype=bool)
    for i, cell in enumerate(uniques):
        text = str(cell).strip()
        if text in MISSING_ANY or text in MISSING_NUMERIC:
            continue
        value = parse(text)
        if value is None:
            bad_unique[i] = True
        else:
            numbers[i] = value
    return numbers, bad_unique


def check_written(raw: RawData, name: str, attribute: Attribute, strict: bool, notes) -> None:
    """Report a column read as nominal that holds numbers with stray text (``stray_text``)."""
    if attribute.kind != NOMINAL or name in raw.declared:
        return
    found = stray_text(raw.frame[name])
    kind = "is numeric"
    if found is None:
        found, kind = stray_date(raw.frame[name]), "holds ISO 8601 dates"
    if found is None:
        hint = written_numbers(raw, name)
        if hint is not None and notes is not None:
            notes.append(hint)
        return
    row, cell = found
    cell = cell if len(cell) <= 40 else cell[:37] + "..."
    head = f"{raw.source}: column {name!r} {kind} but {where(raw, row)} has {cell!r}"
    if DECIMAL_COMMA.fullmatch(cell) and raw.decimal == "." and raw.sep != ",":
        head += " (a number with a decimal comma: --decimal , reads them)"
    option = f"--nominal {shlex.quote(name)}"
    if strict:
        raise DataError(f"{head}; refused by --strict (fix the cell or write ? for a missing value, or use {option} "
                        "to read the column as nominal)")  # fmt: skip
    if notes is not None:
        notes.append(f"{head}; it is read as nominal (fix the cell or write ? for a missing value; {option} "
                     "reads it as nominal without this warning; --strict refuses it)")  # fmt: skip


DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?")  # 47,8
GROUPS = "[ \u00a0\u202f.,']"  # what groups thousands: a space (no-break too), a point, a comma, an apostrophe
FOR_READING = (  # numbers written for people: what each is, and the pattern of a cell
    ("a decimal comma", DECIMAL_COMMA),
    # 2,533.27, 1.804,42, 1 804,42 (a space or a no-break space groups), 1'804.42
    ("thousands separators", re.compile(rf"[+-]?[0-9]{{1,3}}(?:{GROUPS}[0-9]{{3}})+(?:[.,][0-9]+)?")),
    ("a percent sign", re.compile(r"[+-]?[0-9]*[.,]?[0-9]+ ?%")),  # 12%, 4,5 %
    (  # $1,200.50, 1.804,42 €, €1.804,42
        "a currency sign",
        re.compile(
            rf"(?:[$€£¥] ?[+-]?|[+-]?[$€£¥] ?)[0-9]+(?:{GROUPS}[0-9]{{3}})*(?:[.,][0-9]+)?"
            rf"|[+-]?[0-9]+(?:{GROUPS}[0-9]{{3}})*(?:[.,][0-9]+)? ?[$€£¥]"
        ),
    ),
)


def written_numbers(raw: RawData, name: str) -> str | None:
    """A note for a nominal column whose cells (at least ``STRAY_SHARE`` of those with a value, of rows)
    are numbers written for people, with thousands separators, a percent or currency sign, or a decimal
    comma the file's decimal mark does not read: dtree reads them as text (as categories), and says so
    with the first such cell and how to write them; else None. The first ``SAMPLE_VALUES`` distinct
    cells are looked at before all of them (a column of a million codes costs a glance)."""
    column = raw.frame[name]
    if isinstance(column, NumberColumn):
        return None
    codes, uniques = column.factorize()
    texts = [str(cell).strip() for cell in uniques]
    known = [i for i, text in enumerate(texts) if text not in MISSING_ANY + MISSING_NUMERIC]
    if not known or not (texts[known[0]][:1].isdigit() or texts[known[0]][:1] in "$€£¥.+-"):
        return None
    for what, pattern in FOR_READING:
        if what == "a decimal comma" and raw.decimal == ",":
            continue
        if not any(pattern.fullmatch(texts[i]) for i in known[:SAMPLE_VALUES]):
            continue
        found = _written(codes, texts, known, pattern, raw.decimal)
        if found is None:
            continue
        comma_file = raw.sep == ","  # (where a comma separates, "23,5" is quoted and --decimal , cannot read it)
        early = raw.lines is None or int(raw.lines[found]) <= SAMPLE_LINES
        if what == "a decimal comma" and not comma_file and early:
            continue  # (among the lines the dialect read: its note on the two decimal marks has said it)
        if what == "a decimal comma":
            way = (
                "write them with a decimal point, or separate the file by ';' and give --decimal ,"
                if comma_file
                else "give --decimal , to read them as numbers"
            )
        else:
            way = f"write them as plain numbers, without {what}, to split on them as numbers"
        cell = str(column.cell(found)).strip()
        return (
            f"{raw.source}: column {name!r} holds numbers written with {what} ({where(raw, found)} has {cell!r}), "
            f"which are read as text, a category each: {way}"
        )
    return None


SAMPLE_VALUES = 200  # distinct cells of a column looked at first, for written numbers


def _written(codes: np.ndarray, texts: list[str], known: list[int], pattern, decimal: str = ".") -> int | None:
    """The first row written so (``pattern``) in a column whose rows with a value are at least
    ``STRAY_SHARE`` numbers, plain (with the file's ``decimal`` mark) or written so; else None."""
    shaped = np.zeros(len(texts), dtype=bool)
    number = np.zeros(len(texts), dtype=bool)
    for i in known:
        plain = texts[i].replace(",", ".") if decimal == "," and "." not in texts[i] else texts[i]
        shaped[i] = pattern.fullmatch(texts[i]) is not None
        number[i] = shaped[i] or parse_number(plain) is not None
    counts = np.bincount(codes[codes >= 0], minlength=len(texts))
    if counts[number].sum() < STRAY_SHARE * counts[known].sum():
        return None
    return int(np.flatnonzero(shaped[np.maximum(codes, 0)] & (codes >= 0))[0])


def stray_text(column) -> tuple[int, str] | None:
    """(row, cell) of the first cell that is not a number in a column of numbers with stray text:
    one whose non-missing cells are at least ``STRAY_SHARE`` numbers, and not all numbers, none of
    them written with a leading zero (``007``: codes, a nominal column); else None."""
    if isinstance(column, NumberColumn):
        return None
    values, bad = numbers_of(column)
    strays = int(bad.sum())
    numbers = int((~bad & ~np.isnan(values)).sum())
    if not strays or not numbers:
        return None
    codes, uniques = column.factorize()
    if numbers < STRAY_SHARE * (numbers + strays) and not all(
        str(uniques[code]).strip().casefold() in MISSING_LOOKALIKES for code in set(codes[bad].tolist())
    ):  # (fewer numbers: a column of numbers still when every other cell is a missing value written so)
        return None
    if any(CODE.match(str(cell).strip()) and parse_number(str(cell)) is not None for cell in uniques):
        return None
    row = int(np.flatnonzero(bad)[0])
    return row, str(column.cell(row)).strip()


def stray_date(column) -> tuple[int, str] | None:
    """(row, cell) of the first cell that is not an ISO 8601 date of the calendar (``dates.parse_iso``) in a
    column of such dates with stray text (at least ``STRAY_SHARE`` of its non-missing cells dates, not all,
    as ``2023-02-29`` among them makes it); else None. Looked at only when its first value starts as a date."""
    if isinstance(column, NumberColumn):
        return None
    codes, uniques = column.factorize()
    texts = [str(cell).strip() for cell in uniques]
    known = [i for i, text in enumerate(texts) if text not in MISSING_ANY + MISSING_NUMERIC]
    if not known or not ISO.match(texts[known[0]]):
        return None
    dates = np.zeros(len(uniques) + 1, dtype=bool)
    stray = np.zeros(len(uniques) + 1, dtype=bool)
    for i in known:
        dates[i] = parse_iso(texts[i]) is not None
        stray[i] = not dates[i]
    n_dates, n_stray = int(dates[codes].sum()), int(stray[codes].sum())
    if not n_stray or n_dates < STRAY_SHARE * (n_dates + n_stray):
        return None
    row = int(np.flatnonzero(stray[codes])[0])
    return row, str(column.cell(row)).strip()


def where(raw: RawData, row: int) -> str:
    return f"line {int(raw.lines[row])}" if raw.lines is not None else f"row {row + 1}"
