"""Dates and date-times as numbers (seconds since 1970-01-01T00:00:00 UTC) and back, in plain Python.

A date attribute is a numeric attribute whose ``time`` is a date format in
Java's ``SimpleDateFormat`` letters, as ARFF's ``@attribute d date
"yyyy-MM-dd"`` writes it: ``y`` year (``yy``: 1969-2068), ``M`` month
(``MMM`` ``Mar``, ``MMMM`` ``March``), ``d`` day, ``H`` hour 0-23, ``k``
1-24, ``h`` 1-12 and ``K`` 0-11 with ``a`` AM/PM, ``m`` minute, ``s``
second, ``S`` digits of a fraction of a second (``SSS``: up to 3), ``E``
day name (read, not checked), ``X``/``Z`` an offset from UTC (``Z`` or
``+01:00``); text in single quotes is literal. A time without an offset is
taken as UTC. ``iso_format`` finds the format of a CSV column of ISO 8601
cells (``2024-03-15``, ``2024-03-15T10:30``, ``2024-03-15 10:30:00.25Z``).

A threshold ``t`` prints (``date_text``) as the latest value of the format
that is at most ``t``: every value the format can write lies on its grid
(whole days for ``yyyy-MM-dd``, whole minutes for ``...HH:mm``), so for each
such value ``v``, ``v <= t`` exactly when ``v <= date_text(t)``: the printed
test is true of every date the attribute reads. A cut between 2024-03-15 and
2024-03-16 prints as ``<= 2024-03-15`` and ``> 2024-03-15``.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from dtcli.model.number_text import format_threshold

EPOCH_DAY = date(1970, 1, 1).toordinal()
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
NUMBERS = "yMdHkKhmsS"
LETTERS = NUMBERS + "aEXZ"
DATE_UNIT = "seconds since 1970-01-01T00:00:00Z"  # what a date attribute's numbers count (the model says so)
WEKA_DEFAULT = "yyyy-MM-dd'T'HH:mm:ss"  # an ARFF date attribute declared without a format
ISO = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})(?:(?P<sep>[T ])(\d{2}):(\d{2})(?::(\d{2})(?:\.(?P<frac>\d{1,6}))?)?"
    r"(?P<zone>Z|[+-]\d{2}:\d{2})?)?"
)


class DateFormatError(ValueError):
    """A date format with a letter dtree does not read (the message names it)."""


def _tokens(pattern: str) -> list[tuple[str, int | str]]:
    """The pattern as (letter, count) fields and ("", text) literals."""
    tokens: list[tuple[str, int | str]] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            end = pattern.find("'", i + 1)
            if end == i + 1:  # '' is a quote
                tokens.append(("", "'"))
                i += 2
                continue
            if end < 0:
                raise DateFormatError(f"date format {pattern!r}: a quote is not closed")
            tokens.append(("", pattern[i + 1 : end].replace("''", "'")))
            i = end + 1
        elif c.isascii() and c.isalpha():
            if c not in LETTERS:
                raise DateFormatError(f"date format {pattern!r}: dtree does not read the letter {c!r}")
            j = i
            while j < len(pattern) and pattern[j] == c:
                j += 1
            tokens.append((c, j - i))
            i = j
        else:
            tokens.append(("", c))
            i += 1
    return tokens


def _names(names) -> str:
    return "|".join(sorted({n for name in names for n in (name, name[:3])}, key=len, reverse=True))


class DateFormat:
    """One date format: ``parse`` a cell to seconds since the epoch, ``text`` a number back."""

    def __init__(self, pattern: str):
        self.pattern = pattern
        self.tokens = _tokens(pattern)
        parts = []
        for k, (letter, count) in enumerate(self.tokens):
            if not letter:
                parts.append(re.escape(str(count)))
            elif letter in NUMBERS and not (letter == "M" and count >= 3):
                after = self.tokens[k + 1][0] if k + 1 < len(self.tokens) else ""
                parts.append(rf"(\d{{{count}}})" if after in NUMBERS and after else rf"(\d{{1,{max(count, 9)}}})")
                if letter == "S":
                    parts[-1] = rf"(\d{{1,{count}}})"
            elif letter == "M" or letter == "E":
                parts.append(f"({_names(MONTHS if letter == 'M' else DAYS)})")
            elif letter == "a":
                parts.append("(AM|PM|am|pm)")
            else:
                parts.append(r"(Z|[+-]\d{2}(?::?\d{2})?)")
        self.regex = re.compile("".join(parts), re.IGNORECASE)
        self.fraction = max((int(count) for letter, count in self.tokens if letter == "S"), default=0)

    def parse(self, text: str) -> float | None:
        """Seconds since 1970-01-01T00:00:00 UTC of ``text``, or None if it is not a date of this format."""
        found = self.regex.fullmatch(text.strip())
        if found is None:
            return None
        got = {"y": 1970, "M": 1, "d": 1, "H": 0, "m": 0, "s": 0, "S": 0}
        pm, offset, hour12 = None, 0, None
        fields = [t for t in self.tokens if t[0]]
        for (letter, count), cell in zip(fields, found.groups()):
            if letter == "M" and count >= 3:
                got["M"] = 1 + next(i for i, name in enumerate(MONTHS) if name.lower().startswith(cell.lower()[:3]))
            elif letter in ("h", "K"):
                hour12 = int(cell) % 12 if letter == "h" else int(cell)
                if not (1 <= int(cell) <= 12 if letter == "h" else 0 <= int(cell) <= 11):
                    return None
            elif letter == "k":
                got["H"] = int(cell) % 24
                if not 1 <= int(cell) <= 24:
                    return None
            elif letter == "S":
                got["S"] = int(cell.ljust(6, "0")[:6])
            elif letter == "y":
                got["y"] = int(cell) + (0 if count != 2 or len(cell) != 2 else 2000 if int(cell) < 69 else 1900)
            elif letter == "a":
                pm = cell.upper() == "PM"
            elif letter in "XZ":
                if cell.upper() != "Z":
                    digits = cell[1:].replace(":", "").ljust(4, "0")
                    offset = (int(digits[:2]) * 3600 + int(digits[2:]) * 60) * (1 if cell[0] == "+" else -1)
            elif letter != "E":
                got[letter] = int(cell)
        if hour12 is not None:
            got["H"] = hour12 + (12 if pm else 0)
        try:
            day = date(got["y"], got["M"], got["d"]).toordinal()
        except ValueError:
            return None
        if got["H"] > 23 or got["m"] > 59 or got["s"] > 59:
            return None
        seconds = (day - EPOCH_DAY) * 86400 + got["H"] * 3600 + got["m"] * 60 + got["s"] - offset
        return float(seconds) + got["S"] / 1e6 if got["S"] else float(seconds)

    def _write(self, moment: datetime) -> str:
        out = []
        for letter, count in self.tokens:
            if not letter:
                out.append(str(count))
                continue
            if letter == "M" and count >= 3:
                out.append(MONTHS[moment.month - 1][: 3 if count == 3 else None])
            elif letter == "E":
                out.append(DAYS[moment.weekday()][: 3 if count <= 3 else None])
            elif letter == "a":
                out.append("PM" if moment.hour >= 12 else "AM")
            elif letter in "XZ":
                out.append("Z" if letter == "X" else "+0000")
            elif letter == "S":
                out.append(f"{moment.microsecond:06d}"[:count])
            else:
                number = {"y": moment.year % 100 if count == 2 else moment.year, "M": moment.month, "d": moment.day,
                          "H": moment.hour, "k": moment.hour or 24, "K": moment.hour % 12, "h": moment.hour % 12 or 12,
                          "m": moment.minute, "s": moment.second}[letter]  # fmt: skip
                out.append(f"{number:0{count}d}")
        return "".join(out)

    def text(self, value: float) -> str | None:
        """The latest value of this format at most ``value`` (see the module), or None outside years 1-9999."""
        if not math.isfinite(value):
            return None
        whole = math.floor(value)
        micro = math.floor((value - whole) * 1e6)
        step = 10 ** (6 - self.fraction)
        try:
            moment = datetime(1970, 1, 1) + timedelta(seconds=whole, microseconds=micro - micro % step)
            written = self._write(moment)
            if self.fraction:  # a fraction's decimal digits against the binary number: settle the last one
                while (self.parse(written) or 0.0) > value:
                    moment -= timedelta(microseconds=step)
                    written = self._write(moment)
                while (self.parse(self._write(moment + timedelta(microseconds=step))) or math.inf) <= value:
                    moment += timedelta(microseconds=step)
                    written = self._write(moment)
        except (OverflowError, ValueError):
            return None
        return written


def sortable(pattern: str) -> bool:
    """Whether texts written in ``pattern`` sort as their dates do, so that generated code may compare the
    text: fixed-width fields from the year down (``yyyy``, then ``MM``, ``dd``, ``HH``, ``mm``, ``ss`` in
    that order, each a prefix of the next, then ``S`` digits), separated by literals, with no offset."""
    order = [("y", 4), ("M", 2), ("d", 2), ("H", 2), ("m", 2), ("s", 2)]
    tokens = _tokens(pattern)
    if any(not letter and set(str(text)) - set(" -/.:T_Z") for letter, text in tokens):
        return False  # (a literal that is none of these might need quoting in generated code)
    fields = [token for token in tokens if token[0]]
    if not fields or fields[-1][0] == "S":
        fields, fraction = fields[:-1], bool(fields)
    else:
        fraction = False
    if fraction and fields != order:
        return False
    return bool(fields) and fields == order[: len(fields)]


@lru_cache(maxsize=64)
def date_format(pattern: str) -> DateFormat:
    """The DateFormat of ``pattern`` (DateFormatError for a letter dtree does not read)."""
    return DateFormat(pattern)


def threshold_text(value: float, time: str = "") -> str:
    """A threshold as printed: a date of the attribute's format ``time`` (see the module), or a number."""
    if time:
        text = date_format(time).text(value)
        if text is not None:
            return text
    return format_threshold(value)


def iso_format(cells) -> str | None:
    """The date format every cell of ``cells`` (distinct, non-missing texts) is written in, if they are
    all ISO 8601 dates of one form (seconds with fractions of up to as many digits as the longest;
    ``Z`` and offsets mixed read as offsets), else None. Whether each is a day of the calendar is for
    the caller to check, parsing them."""
    first = next(iter(cells), None)
    found = None if first is None else ISO.fullmatch(first.strip())
    if found is not None and found.group("frac") is None and found.group("zone") is None:  # one regex a cell
        shape = ISO_SHAPES[(found.group("sep"), found.group(7) is not None)]
        if all(shape.fullmatch(cell.strip()) for cell in cells):
            return _iso_pattern(found.group("sep"), found.group(7) is not None, 0, {None})
    forms, digits, zones = set(), 0, set()
    for cell in cells:
        found = ISO.fullmatch(cell.strip())
        if found is None:
            return None
        forms.add((found.group("sep"), found.group(7) is not None))
        digits = max(digits, len(found.group("frac") or ""))
        zones.add(None if found.group("zone") is None else found.group("zone") == "Z")
        if len(forms) > 1 or (None in zones and len(zones) > 1):
            return None
    if not forms:
        return None
    ((sep, seconds),) = forms
    return _iso_pattern(sep, seconds, digits, zones)


ISO_SHAPES = {
    (None, False): re.compile(r"\d{4}-\d{2}-\d{2}"),
    **{(sep, False): re.compile(rf"\d{{4}}-\d{{2}}-\d{{2}}{sep}\d{{2}}:\d{{2}}") for sep in "T "},
    **{(sep, True): re.compile(rf"\d{{4}}-\d{{2}}-\d{{2}}{sep}\d{{2}}:\d{{2}}:\d{{2}}") for sep in "T "},
}  # the ISO forms without a fraction or an offset, by (separator, seconds)


def _iso_pattern(sep, seconds: bool, digits: int, zones: set) -> str:
    """The date format of an ISO form: its separator, whether it has seconds, fraction digits, zones."""
    pattern = "yyyy-MM-dd"
    if sep is not None:
        pattern += ("'T'" if sep == "T" else " ") + "HH:mm" + (":ss" if seconds else "")
        pattern += "." + "S" * digits if digits else ""
        pattern += "" if zones == {None} else "'Z'" if zones == {True} else "XXX"
    return pattern


def mixed_iso_format(cells) -> str | None:
    """The format of ISO 8601 cells of several forms, dates among date-times or date-times with and without
    seconds (``2024-03-15`` beside ``2024-03-15T10:30``): the finest (seconds if any has them, the most
    fraction digits, ``T`` if any is written so); None when a cell is no ISO 8601 date, when all are dates,
    or when date-times with and without an offset mix (a date alone has none to disagree)."""
    seps, seconds, digits, zones = set(), False, 0, set()
    for cell in cells:
        found = ISO.fullmatch(cell.strip())
        if found is None:
            return None
        if found.group("sep") is None:
            continue
        seps.add(found.group("sep"))
        seconds = seconds or found.group(7) is not None
        digits = max(digits, len(found.group("frac") or ""))
        zones.add(None if found.group("zone") is None else found.group("zone") == "Z")
    if not seps or (None in zones and len(zones) > 1):
        return None
    return _iso_pattern("T" if "T" in seps else " ", seconds, digits, zones)


ISO_FORM = re.compile(r"yyyy-MM-dd(?:('T'| )HH:mm(:ss(\.S{1,6})?)?('Z'|XXX)?)?")  # the formats iso_format gives


def is_iso_form(pattern: str) -> bool:
    """Whether ``pattern`` is one of the ISO 8601 forms ``iso_format`` finds in a CSV column."""
    return ISO_FORM.fullmatch(pattern) is not None


def parse_iso(text: str) -> float | None:
    """Seconds since 1970-01-01T00:00:00 UTC of an ISO 8601 date or date-time of any form ``iso_format``
    reads (a date alone: its midnight; no offset: UTC), or None if ``text`` is none of them."""
    pattern = iso_format([text])
    return None if pattern is None else date_format(pattern).parse(text)
