"""The lines of an ARFF text as liac-arff reads them, numbered as an editor numbers them, blank lines skipped.

``ArffLines`` is the iterable handed to liac-arff: it yields the lines that
hold something (a run of blank lines costs one regular-expression search, not
a Python step per line), so liac-arff's own line count would be wrong; the
reader takes ``current`` (the file line of the last line yielded: liac-arff
fails on the line it has just taken) instead. It also records the line of
every ``@attribute`` declaration and of every data row, and stops past
``max_rows`` data rows; ``data_offset`` and ``data_line`` say where the data
section starts. Line ends: LF, CRLF and a lone CR. A ``date`` attribute (which
liac-arff does not read) reaches liac-arff as ``string``; ``dates`` keeps its
position and format (Weka's default when none is given). A comment after a
declaration or a data row (an unquoted ``%`` and the rest of the line, which
Weka's reader skips) is cut off before liac-arff sees the line. A header line
reaches liac-arff with its keyword first and one space after it (``KEYWORD``):
Weka's reader takes tabs and every other character up to the space as blanks
there, liac-arff only the space.
"""

from __future__ import annotations

import re
from array import array

from dtcli.io.source import too_many_rows
from dtcli.model.dates import WEKA_DEFAULT

CONTENT = re.compile(r"\S")
LINE_END = re.compile(r"\r\n|\r|\n")
DATE = re.compile(
    r"""\s*(@attribute\s+(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[^\s{'"%]\S*)\s+)date(?:\s+(.*?))?\s*""",
    re.IGNORECASE,
)

# a line up to its first % outside quotes: Weka's reader ends a line there (a comment), as in Weka's own
# supermarket.arff's "@attribute 'total' { low, high} % low < 100"; liac-arff reads only whole-line comments
COMMENT = re.compile(r"""((?:[^%'"\\]|\\.|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")*)%""", re.DOTALL)

# a header keyword with the blanks around it: Weka's tokenizer takes every character up to the space as a blank
KEYWORD = re.compile(r"^[\x01-\x20]*(@relation|@attribute|@data)(?=[\x01-\x20]|$)[\x01-\x20]*", re.IGNORECASE)


def _spaced(found: re.Match) -> str:
    """A header keyword at the start of its line, one space after it (as liac-arff reads it)."""
    return found.group(1) + (" " if found.end() < len(found.string) else "")


def ends_between(text: str, start: int, stop: int) -> int:
    """Line ends in ``text[start:stop]`` (both at line boundaries): LF, CR and CRLF count once each."""
    return text.count("\n", start, stop) + text.count("\r", start, stop) - text.count("\r\n", start, stop)


class ArffLines:
    """Iterate to get the non-blank lines; then ``current``, ``attribute_lines`` and ``data_lines``."""

    def __init__(self, text: str, source: str, max_rows: int = 0):
        self.text, self.source, self.max_rows = text, source, max_rows
        self.current = 0
        self.row = ""  # the text of the line ``current``
        self.attribute_lines: list[int] = []
        self.data_lines = array("q")
        self.in_data = False
        self.dates: dict[int, str] = {}  # position of a date attribute: its format
        self.data_offset, self.data_line = -1, 0  # where the line after @data starts, and its number

    def empty(self) -> bool:
        return CONTENT.search(self.text) is None

    def __iter__(self):
        text, position, line = self.text, 0, 1
        while True:
            found = CONTENT.search(text, position)
            if found is None:
                return
            start = (
                max(text.rfind("\n", position, found.start()), text.rfind("\r", position, found.start()), position - 1)
                + 1
            )
            line += ends_between(text, position, start)
            end = LINE_END.search(text, found.start())
            stop, position = (end.start(), end.end()) if end else (len(text), len(text))
            self.current = line
            row = self.row = text[start:stop]
            if "%" in row:
                row = uncommented(row)
            header = not self.in_data
            self._note(row.strip(), line)
            if header and self.in_data:
                self.data_offset, self.data_line = position, line + 1
            if header:
                row = KEYWORD.sub(_spaced, row, count=1)  # (Weka's blanks: tabs too, before and after)
            if not self.in_data and (found := DATE.fullmatch(row)) is not None:
                self.dates[len(self.attribute_lines) - 1] = _unquoted(found.group(2)) or WEKA_DEFAULT
                row = found.group(1) + "string"
            yield row
            line += 1

    def _note(self, row: str, line: int) -> None:
        if self.in_data:
            if not row.startswith("%"):
                self.data_lines.append(line)
                if self.max_rows and len(self.data_lines) > self.max_rows:
                    raise too_many_rows(self.source, self.max_rows)
        elif row[:5].upper() == "@DATA":
            self.in_data = True
        elif row[:10].upper() == "@ATTRIBUTE":
            self.attribute_lines.append(line)


def uncommented(row: str) -> str:
    """``row`` without the comment that ends it (an unquoted % and what follows, the blanks before it);
    a comment line, or a line whose quotes do not close, as it is."""
    if row.lstrip().startswith("%"):
        return row
    found = COMMENT.match(row)
    return row if found is None else found.group(1).rstrip()


def _unquoted(text: str | None) -> str:
    """A date format as declared: quotes around it removed."""
    text = (text or "").strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text
