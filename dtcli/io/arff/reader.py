"""ARFF parsing with liac-arff: declared types kept, cells as text, every failure one line naming its line.

liac-arff reads the lines ``arff_lines.ArffLines`` gives it: the header, and then the data
rows, row by row (``DENSE_GEN``), into columns a batch at a time, unless the data section is
written plainly enough for ``simple.simple_columns`` to read it whole (the same columns). Whatever
liac-arff raises (its own errors, and the ``IndexError``, ``ValueError`` or
``OverflowError`` some malformed files cause inside it) becomes one DataError
naming the line it was reading. Text that escapes can make invalid (a lone
UTF-16 surrogate such as ``'\\ud800'``) is refused here, so no writer meets it;
an escaped surrogate pair becomes the character it stands for.
"""

from __future__ import annotations

import re
from array import array

import numpy as np

from dtcli.errors import DataError, DtreeError
from dtcli.io.arff.lines import ArffLines
from dtcli.io.arff.simple import simple_columns
from dtcli.io.columns import Columns, NumberColumn, TextColumn
from dtcli.model.colnames import clash, clash_text
from dtcli.model.dates import DateFormatError, date_format
from dtcli.model.table import NOMINAL, NUMERIC, Attribute

ARFF_MISSING = "?"
BATCH = 4096  # rows turned into columns at a time
SURROGATE = re.compile("[\ud800-\udfff]")
CONTROL = re.compile("[\x00-\x1f\x7f]")
_HINTS = {
    "BadNumericalValue": "a value of a numeric attribute is not a number",
    "BadAttributeType": "unsupported attribute type (dtree reads numeric, real, integer, string, date, nominal {...})",
    "BadLayout": "expected @relation, then @attribute lines, then @data",
    "BadAttributeName": "an attribute name is declared twice; rename one",
}
_CRASHES = {  # what liac-arff's own exceptions on malformed lines mean
    IndexError: "a nominal attribute needs at least one value, as in {a, b}",
    OverflowError: "a value of an integer attribute is infinite",
}


def parse_arff(text: str, source: str, max_rows: int = 0) -> tuple[Columns, dict[str, Attribute], np.ndarray]:
    """The cells (numbers for numeric attributes, text for the rest), the declared attributes,
    and the file line of each row."""
    import arff  # liac-arff: imported here so CSV users do not pay for it

    lines = ArffLines(text, source, max_rows)
    if lines.empty():
        raise DataError(f"{source}: file is empty; an ARFF file needs @relation, @attribute and @data sections")
    declared, names = {}, []
    try:
        parsed = arff.load(lines, return_type=arff.DENSE_GEN)
        declared, names = _declared(parsed["attributes"], source, lines.attribute_lines, lines.dates)
        simple = None
        if lines.data_offset >= 0:  # (liac-arff has read the header and stopped at @data)
            data = lines.text[lines.data_offset :]
            simple = simple_columns(data, lines.data_line, parsed["attributes"], names, max_rows)
        if simple is None:
            columns, n_rows = _columns(parsed["data"], names, declared, source, lines)
        else:
            columns, n_rows, lines.data_lines = simple
        _check_dates(columns, declared, source, lines.data_lines)
    except DtreeError:
        raise
    except arff.ArffException as exc:
        hint = _HINTS.get(type(exc).__name__) or _message(_text(exc))
        if type(exc).__name__ == "BadNumericalValue":
            hint = _bad_number(lines.row, names, declared) or hint
        if type(exc).__name__ in ("BadNominalValue", "BadDataFormat"):
            hint = _bad_row(lines.row, names, declared) or hint
        if type(exc).__name__ in ("BadAttributeType", "BadAttributeName"):
            hint = _bad_declaration(lines.row, type(exc).__name__) or hint
        if type(exc).__name__ == "BadLayout" and WEIGHT.search(_line(lines.text, lines.current)):
            hint = ("an instance weight ({w} after the values), which dtree does not read: remove the weights, or "
                    "write the table as CSV with a column of them and give --weights COL")  # fmt: skip
        raise _invalid(source, lines.current, hint) from None
    except (MemoryError, RecursionError):
        raise
    except Exception as exc:  # liac-arff failing inside on a malformed line: name the line
        raise _invalid(source, lines.current, _CRASHES.get(type(exc)) or _message(_text(exc))) from None
    _check_text(columns, source, np.asarray(lines.data_lines, dtype=np.int64))
    return Columns(columns, n_rows), declared, np.asarray(lines.data_lines, dtype=np.int64)


WEIGHT = re.compile(r",\s*\{\s*[-+0-9.eE]+\s*\}\s*$")  # Weka's instance weight at the end of a data row


def _line(text: str, number: int) -> str:
    """Line ``number`` (1-based) of ``text``, or "" past its end."""
    if number < 1:
        return ""
    start = 0
    for _ in range(number - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end].rstrip("\r")


def _invalid(source: str, line: int, message: str) -> DataError:
    where = f", line {line}" if line > 0 else ""
    return DataError(f"{source}{where}: invalid ARFF: {message}")


def _text(exc) -> str:
    """An exception's message (liac-arff's ``str`` fails when the value it quotes holds a ``%``)."""
    try:
        return str(exc)
    except Exception:  # any failure to format: the message template will do
        return str(getattr(exc, "message", "") or type(exc).__name__)


def _message(text: str) -> str:
    """liac-arff's message without its (wrong) line number, on one line and not too long."""
    text = " ".join(re.sub(r",? (at|in) line (-?\d+|%d)\.?", "", text).split()).rstrip(".")
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")  # a lone surrogate quoted in it
    text = CONTROL.sub(lambda found: repr(found.group())[1:-1], text)  # and control characters
    if "escape" in text or "base 8" in text:
        return "a quoted value holds an escape that is not valid (such as \\q or \\8)"
    if "not enough values to unpack" in text:
        return "expected a name after @relation or @attribute, separated by a space"
    return text if len(text) <= 100 else text[:97] + "..."


def _declared(attributes, source: str, attribute_lines: list[int], dates: dict) -> tuple[dict, list[str]]:
    declared: dict[str, Attribute] = {}
    names = []
    for position, (name, kind) in enumerate(attributes):
        line = attribute_lines[position] if position < len(attribute_lines) else 0
        name = _valid(name, source, line, "an attribute name")
        if name in declared:
            raise DataError(f"{source}: attribute {name!r} is declared twice; rename one")
        if isinstance(kind, list):
            values = tuple(_valid(str(v), source, line, "a nominal value") for v in kind)
            declared[name] = Attribute(name, NOMINAL, values)
        elif position in dates:
            try:
                date_format(dates[position])
            except DateFormatError as exc:
                raise _invalid(source, line, f"{exc} (attribute {name!r})") from None
            declared[name] = Attribute(name, NUMERIC, time=dates[position])
        elif kind.upper() in ("NUMERIC", "REAL", "INTEGER"):
            declared[name] = Attribute(name, NUMERIC)
        names.append(name)
    same = clash(names)
    if same is not None:
        line = attribute_lines[same[1]] if same[1] < len(attribute_lines) else 0
        first, second = (names[i] for i in same)
        raise DataError(f"{source}, line {line}: {clash_text(first, second)}; rename one of the attributes")
    return declared, names


def _columns(rows, names: list[str], declared: dict, source: str, lines: ArffLines):
    """The rows' cells as columns, a batch of rows at a time."""
    numeric = [name in declared and declared[name].kind == NUMERIC and not declared[name].time for name in names]
    numbers = [array("d") for _ in names]
    codes = [array("i") for _ in names]
    index: list[dict] = [{} for _ in names]
    batch, n_rows = [], 0
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            n_rows += _add(batch, numeric, numbers, codes, index, names, source, lines.data_lines[n_rows:])
            batch = []
    n_rows += _add(batch, numeric, numbers, codes, index, names, source, lines.data_lines[n_rows:])
    columns = {}
    for j, name in enumerate(names):
        if numeric[j]:
            columns[name] = NumberColumn(np.frombuffer(numbers[j], dtype=np.float64).copy())
        else:
            columns[name] = TextColumn(np.frombuffer(codes[j], dtype=np.int32).copy(), list(index[j]))
    return columns, n_rows


def _add(batch, numeric, numbers, codes, index, names, source: str, batch_lines) -> int:
    """Append a batch of rows (read from the lines ``batch_lines``) to the columns; the number of rows."""
    if not batch:
        return 0
    for j, cells in enumerate(zip(*batch)):
        if numeric[j]:
            given_up = [k for k, cell in enumerate(cells) if isinstance(cell, str)]
            if given_up:
                raise _given_up(batch[given_up[0]], numeric, names, f"{source}, line {batch_lines[given_up[0]]}")
            numbers[j].extend(np.nan if cell is None else float(cell) for cell in cells)
        else:
            seen = index[j]
            codes[j].extend(-1 if cell is None else seen.setdefault(str(cell), len(seen)) for cell in cells)
    return len(batch)


def _check_dates(columns: dict, declared: dict, source: str, data_lines) -> None:
    """Refuse a cell of a date attribute that is not a date of its format, naming its line."""
    for name, attribute in declared.items():
        if not attribute.time:
            continue
        column = columns[name]
        parse = date_format(attribute.time).parse
        for code, cell in enumerate(column.uniques):
            if parse(cell) is None:
                row = int(np.argmax(column.codes == code))
                line = int(data_lines[row]) if row < len(data_lines) else 0
                shown = cell if len(cell) <= 40 else cell[:37] + "..."
                raise _invalid(
                    source,
                    line,
                    f"{shown!r} is not a date written {attribute.time} (attribute {name!r}); "
                    "write ? for a missing value",
                )


def _given_up(row, numeric, names, where: str) -> DataError:
    """liac-arff leaves a row unconverted (every cell text) when an integer attribute holds ``nan``."""
    for j, cell in enumerate(row):
        if numeric[j] and isinstance(cell, str) and not _number_not_nan(cell):
            return DataError(
                f"{where}: invalid ARFF: {cell!r} is not a number (attribute {names[j]!r}); write ? for a missing value"
            )
    return DataError(f"{where}: invalid ARFF: a value of an integer attribute is not a number; write ? if missing")


def _bad_number(row: str, names: list[str], declared: dict) -> str | None:
    """What is wrong in a dense data row without quotes whose numeric cell is no number: the cell
    and its attribute (None for any other row: the general hint then)."""
    if any(c in row for c in "'\"{%"):
        return None
    cells = [cell.strip() for cell in row.split(",")]
    if len(cells) != len(names):
        return None
    for name, cell in zip(names, cells):
        if declared.get(name) is not None and declared[name].kind == NUMERIC and cell != ARFF_MISSING:
            if not _number_not_nan(cell):
                shown = cell if len(cell) <= 40 else cell[:37] + "..."
                return f"{shown!r} is not a number (attribute {name!r}); write ? for a missing value"
    return None


def _bad_row(row: str, names: list[str], declared: dict) -> str | None:
    """What is wrong in a dense data row without quotes that liac-arff refuses: as many values as
    attributes, or a nominal cell its attribute does not declare (None: the general hint)."""
    if any(c in row for c in "'\"{%"):
        return None
    cells = [cell.strip() for cell in row.split(",")]
    if len(cells) != len(names):
        return (
            f"{len(cells)} value(s) on the line where the @attribute lines declare {len(names)}; "
            "give every attribute a value (? when missing)"
        )
    for name, cell in zip(names, cells):
        attribute = declared.get(name)
        nominal = attribute is not None and attribute.kind == NOMINAL
        if nominal and cell != ARFF_MISSING and cell not in attribute.values:
            from dtcli.model.value_text import value_set

            shown = cell if len(cell) <= 40 else cell[:37] + "..."
            many = len(attribute.values) > 8
            values = f"{len(attribute.values)} values" if many else value_set(attribute.values)
            return (
                f"{shown!r} is not a value attribute {name!r} declares ({values}); add it to its @attribute "
                "line or write ? for a missing value"
            )
    return None


def _bad_declaration(line: str, kind: str) -> str | None:
    """An @attribute line liac-arff refuses, named: a { not closed, or the attribute declared twice."""
    found = re.match(r"\s*@attribute\s+('[^']*'|\"[^\"]*\"|\S+)\s*(.*)", line, re.IGNORECASE)
    if found is None:
        return None
    name, rest = found.group(1).strip("'\""), found.group(2)
    if kind == "BadAttributeName":
        return f"attribute {name!r} is declared twice; rename one"
    if "{" in rest and "}" not in rest:
        return f"the values of attribute {name!r} open with {{ but do not close: write them as {{a, b}}"
    return None


def _number_not_nan(cell: str) -> bool:
    try:
        value = float(cell)
    except ValueError:
        return False
    return value == value


def _check_text(columns: dict, source: str, data_lines: np.ndarray) -> None:
    """Combine escaped surrogate pairs in text cells; refuse a lone surrogate, naming its first row's line."""
    for name, column in columns.items():
        if not isinstance(column, TextColumn) or not any(SURROGATE.search(u) for u in column.uniques):
            continue
        for code, cell in enumerate(column.uniques):
            if SURROGATE.search(cell):
                row = int(np.argmax(column.codes == code))
                line = int(data_lines[row]) if row < len(data_lines) else 0
                column.uniques[code] = _valid(cell, source, line, f"a value of {name!r}")


def _valid(text: str, source: str, line: int, what: str) -> str:
    """``text`` with escaped surrogate pairs combined; DataError if a lone surrogate remains."""
    if not SURROGATE.search(text):
        return text
    try:
        return text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        lone = next(c for c in text if "\ud800" <= c <= "\udfff")
        where = f", line {line}" if line > 0 else ""
        raise DataError(
            f"{source}{where}: {what} holds a lone surrogate (\\u{ord(lone):04x}) from an escape, "
            "which is not a character; write the character itself"
        ) from None
