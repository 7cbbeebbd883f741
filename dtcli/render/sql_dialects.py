"""How the SQL export writes names, strings and casts in each dialect: sqlite, postgresql, mysql, ansi.

A name is a quoted identifier and a value a string literal, each written so
that the dialect's own lexer reads back exactly that name or value, whatever
characters it holds (quotes of any kind, backslashes, ``--``, ``/*``, ``;``,
newlines):

- sqlite, ansi: ``"name"`` and ``'value'``, the quote doubled; a backslash is
  an ordinary character in both.
- postgresql: ``"name"``; ``'value'``, or, for a value holding a backslash,
  ``E'va\\\\lue'`` (backslash doubled, quote doubled), which PostgreSQL reads
  alike whether ``standard_conforming_strings`` is on or off. A name longer
  than 63 bytes is the name PostgreSQL shortened to 63 (as it did when the
  column was made), so two that shorten alike are refused.
- mysql: ```name``` (backtick doubled; backslash is ordinary there in every
  mode); ``'value'`` for a value of no backslash nor control character
  (read alike with and without NO_BACKSLASH_ESCAPES), else a hex string with
  a character set, ``_utf8mb4 X'5C27'``, which holds no backslash or quote for
  any mode to read otherwise. Text is compared byte for byte (``utf8mb4_bin``)
  as ``dtree predict`` compares it, not by the column's case-insensitive
  collation. A name MySQL cannot hold (over 64 characters, ending with a space,
  a character outside the BMP) is refused.

In every dialect a name or value holding NUL, or half of a surrogate pair,
is refused: no dialect's text can hold it.
"""

from __future__ import annotations

from dataclasses import dataclass

from dtcli.errors import ParameterError

DIALECTS = ("sqlite", "postgresql", "mysql", "ansi")
DEFAULT_DIALECT = "sqlite"
POSTGRESQL_NAME_BYTES = 63
MYSQL_NAME_CHARACTERS = 64


def _refuse_unwritable(text: str, what: str) -> None:
    if "\x00" in text:
        raise ParameterError(f"{what} {text!r} holds a NUL character, which SQL cannot quote")
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        raise ParameterError(f"{what} {text!r} holds half of a character (a lone surrogate), which SQL cannot hold")


def _doubled(text: str, quote: str) -> str:
    return quote + text.replace(quote, quote + quote) + quote


def _mysql_hex(value: str) -> bool:
    """True when a MySQL string is written in hex: it holds a backslash (read otherwise with and
    without NO_BACKSLASH_ESCAPES), a control character or one outside the BMP (kept from clients'
    conversions)."""
    return any(ch == "\\" or ch < " " or ch == "\x7f" or ch > "\uffff" for ch in value)


def postgresql_name(name: str) -> str:
    """The name PostgreSQL makes of ``name``: its first 63 bytes of UTF-8, cut between characters."""
    data = name.encode("utf-8")
    if len(data) <= POSTGRESQL_NAME_BYTES:
        return name
    return data[:POSTGRESQL_NAME_BYTES].decode("utf-8", "ignore")


@dataclass(frozen=True)
class Dialect:
    """The SQL of one dialect; ``name`` is one of ``DIALECTS``."""

    name: str

    def __post_init__(self):
        if self.name not in DIALECTS:
            raise ParameterError(f"unknown SQL dialect {self.name!r}; use one of {', '.join(DIALECTS)}")

    def identifier(self, name: str) -> str:
        _refuse_unwritable(name, "column name")
        if name == "" and self.name != "sqlite":
            raise ParameterError(f"a column has an empty name, which {self.title} cannot quote; name it")
        if self.name != "mysql":
            return _doubled(name, '"')
        if len(name) > MYSQL_NAME_CHARACTERS:
            raise ParameterError(
                f"column name {name!r} is longer than MySQL's {MYSQL_NAME_CHARACTERS} characters; rename the column"
            )
        if name.endswith(" "):
            raise ParameterError(f"column name {name!r} ends with a space, which MySQL does not allow; rename it")
        if any(ch > "\uffff" for ch in name):
            raise ParameterError(
                f"column name {name!r} holds a character outside the BMP, which MySQL does not allow in names"
            )
        return _doubled(name, "`")

    def string(self, value: str) -> str:
        _refuse_unwritable(value, "value")
        if self.name == "postgresql" and "\\" in value:
            return "E" + _doubled(value.replace("\\", "\\\\"), "'")
        if self.name == "mysql" and _mysql_hex(value):
            return "_utf8mb4 X'" + value.encode("utf-8").hex().upper() + "'"
        return _doubled(value, "'")

    @property
    def title(self) -> str:
        return {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MySQL", "ansi": "standard SQL"}[self.name]

    def text(self, column: str) -> str:
        """A nominal or date column's value as text without spaces around it, compared as text is
        compared by ``dtree predict`` (byte for byte in PostgreSQL and MySQL whatever the
        column's collation)."""
        if self.name == "postgresql":
            return f'TRIM(CAST({column} AS TEXT)) COLLATE "C"'
        if self.name == "mysql":
            return f"CONVERT(TRIM({column}) USING utf8mb4) COLLATE utf8mb4_bin"
        return f"TRIM({column})"

    @property
    def instants(self) -> bool:
        """Whether dates compare as instants (``instant``): SQLite's julianday reads a date alone, a T or a
        space before the time, Z and offsets, as dtree predict does; elsewhere they compare as text."""
        return self.name == "sqlite"

    def instant(self, text: str) -> str:
        """An ISO 8601 date or date-time, given as SQL text, as what compares as its instant where the
        dialect has one (``instants``), else the text of the model's format, which sorts as the dates do."""
        return f"julianday({text})" if self.instants else text

    def number_text(self, column: str) -> str:
        """A numeric column's value as text without spaces around it, whatever its type."""
        if self.name in ("sqlite", "ansi"):
            return f"TRIM(CAST({column} AS VARCHAR(64)))"
        return self.text(column)

    def number(self, column: str) -> str:
        """A numeric column's value as a number, whatever its declared type (SQLite: a text cell with a
        decimal comma, as ``sqlite3 .import`` keeps a ``;`` file's ``22,5``, read as ``dtree predict``
        reads the file, where its CAST would read 22)."""
        if self.name == "sqlite":
            text = f"REPLACE({column}, ',', '.')"
            return f"CAST(CASE WHEN typeof({column}) = 'text' THEN {text} ELSE {column} END AS REAL)"
        return f"CAST({column} AS {'DOUBLE' if self.name == 'mysql' else 'DOUBLE PRECISION'})"

    @property
    def guarded(self) -> bool:
        """True when a cast must be reached only by a number: the dialect may evaluate the parts of
        AND in any order, and its CAST of a text that is not a number (a missing marker such as
        'NA', or 'inf') fails (MySQL: warns, and fails in a strict-mode UPDATE), where SQLite's reads 0."""
        return self.name != "sqlite"


def check_names(names, sql_dialect: Dialect) -> list[str]:
    """The names longer than PostgreSQL keeps (which it reads shortened, as it named the columns),
    or an error for two that shorten alike (one column to PostgreSQL); empty for other dialects."""
    if sql_dialect.name != "postgresql":
        return []
    seen: dict[str, str] = {}
    for name in names:
        short = postgresql_name(name)
        if seen.setdefault(short, name) != name:
            raise ParameterError(
                f"column names {seen[short]!r} and {name!r} are one name to PostgreSQL, which keeps "
                f"the first {POSTGRESQL_NAME_BYTES} bytes of a name; rename one of them"
            )
    return sorted({name for name in names if postgresql_name(name) != name})
