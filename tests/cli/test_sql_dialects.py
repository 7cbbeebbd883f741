"""``dtree rules -f sql --dialect``: each dialect's output lexed by that dialect's own rules, and run in SQLite.

A small lexer reads string literals, quoted identifiers and comments as each
database does: SQLite and standard SQL (quote doubled, backslash ordinary),
PostgreSQL with ``standard_conforming_strings`` on and off (``E'...'``
escapes; off, backslash escapes in ``'...'`` too), MySQL in its default mode
(backslash escapes in ``'...'`` and ``"..."``, ``#`` and ``-- `` comments),
with NO_BACKSLASH_ESCAPES and with ANSI_QUOTES. On a table whose names and
values are hostile (quotes of each kind, backslashes, the issue's
``'\\', ') OR 1=1 --'``, comments, ``;``, newlines, non-BMP characters), every
literal must decode to one of the table's names or values (or a missing marker)
and everything outside literals must be the exporter's own keywords, numbers
and punctuation, in every mode of the dialect alike. The lexer is shown to catch
the issue's bug: the SQLite form read by MySQL's or by PostgreSQL's
backslash-escaping rules fails the same check.
"""

from __future__ import annotations

import csv
import json
import random
import re
import sqlite3
from datetime import date, timedelta

import pytest

from dtcli.errors import ParameterError
from dtcli.render.sql_dialects import Dialect, postgresql_name
from helpers import SAMPLES

VALUES = [
    "\\",
    ") OR 1=1 --",
    "'\\', ') OR 1=1 --'",
    "it's",
    '"dq"',
    "`bt`",
    "a\\'b",
    "/* c */",
    "x;DROP TABLE t;--",
    "l1\nl2",
    "#h",
    "café",
    "\U0001f600",
    "end\\",
    "\\\\'",
]
NAMES = ['Car\\"`', "sl\\ash'; --", "cl'ass\\"]
CLASSES = ["'\\'", 'b`"', "c\\"]
MARKERS = ["", "?", "NA", "NaN", "nan", "NAN", "N/A", "inf", "+inf", "infinity", "+infinity", "-inf", "-infinity"]
MARKERS += ["text", ",", "."]  # (SQLite reads a text cell's decimal comma: typeof(x) = 'text', REPLACE(x, ',', '.'))
MODES = {
    "sqlite": ("sqlite",),
    "ansi": ("ansi", "sqlite"),
    "postgresql": ("postgresql", "postgresql-backslash"),
    "mysql": ("mysql", "mysql-no-backslash-escapes", "mysql-ansi-quotes"),
}
KEYWORDS = {"CASE", "WHEN", "THEN", "ELSE", "END", "AND", "OR", "NOT", "IN", "IS", "NULL", "TRIM", "CAST", "AS"}
KEYWORDS |= {"VARCHAR", "DOUBLE", "PRECISION", "LOWER", "TEXT", "COLLATE", "CONVERT", "USING"}
KEYWORDS |= {"UTF8MB4", "UTF8MB4_BIN", "_UTF8MB4", "TYPEOF", "REPLACE", "REAL"}  # (SQLite: a decimal comma)
PUNCTUATION = {"(", ")", ",", "=", ">", "<=", "-"}


class LexError(Exception):
    pass


PG_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
MYSQL_ESCAPES = {"0": "\0", "b": "\b", "n": "\n", "r": "\r", "t": "\t", "Z": "\x1a", "%": "\\%", "_": "\\_"}


def pg_escape(text: str, j: int) -> tuple[str, int]:
    """PostgreSQL's escape at ``text[j]`` (after the backslash): its character and where it ends."""
    octal = re.match(r"[0-7]{1,3}", text[j:])
    if octal:
        return chr(int(octal.group(), 8)), j + octal.end()
    code = re.match(r"x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})", text[j:])
    if code:
        return chr(int(next(g for g in code.groups() if g), 16)), j + code.end()
    return PG_ESCAPES.get(text[j], text[j]), j + 1


def quoted(text: str, i: int, quote: str, escapes) -> tuple[str, int]:
    """The literal opening at ``text[i]`` (a quote; doubled inside it stands for itself), with
    backslash escapes read by ``escapes`` (None: backslash is ordinary); its value and end."""
    out, j = [], i + 1
    while j < len(text):
        ch = text[j]
        if escapes is not None and ch == "\\":
            if j + 1 >= len(text):
                raise LexError("unterminated literal")
            value, j = escapes(text, j + 1)
            out.append(value)
        elif ch == quote and text[j + 1 : j + 2] == quote:
            out.append(quote)
            j += 2
        elif ch == quote:
            return "".join(out), j + 1
        else:
            out.append(ch)
            j += 1
    raise LexError(f"unterminated literal opened at {i}")


def mysql_escape(text: str, j: int) -> tuple[str, int]:
    return MYSQL_ESCAPES.get(text[j], text[j]), j + 1


def lex(text: str, mode: str) -> list[tuple[str, str]]:
    """(kind, value) tokens as ``mode`` reads ``text``; kind: string, identifier, comment, word, number, punct."""
    mysql, pg = mode.startswith("mysql"), mode.startswith("postgresql")
    backslash = {"mysql": mysql_escape, "mysql-ansi-quotes": mysql_escape, "postgresql-backslash": pg_escape}.get(mode)
    tokens, i = [], 0
    while i < len(text):
        ch, two = text[i], text[i : i + 2]
        if ch.isspace():
            i += 1
        elif two == "--" and (not mysql or i + 2 >= len(text) or text[i + 2] <= " ") or (mysql and ch == "#"):
            end = text.find("\n", i)
            tokens.append(("comment", text[i : len(text) if end < 0 else end]))
            i = len(text) if end < 0 else end
        elif two == "/*":
            end = text.find("*/", i + 2)
            if end < 0:
                raise LexError("unterminated comment")
            tokens.append(("comment", text[i : end + 2]))
            i = end + 2
        elif pg and ch in "Ee" and text[i + 1 : i + 2] == "'":
            value, i = quoted(text, i + 1, "'", pg_escape)
            tokens.append(("string", value))
        elif ch in "Xx" and text[i + 1 : i + 2] == "'":
            end = text.find("'", i + 2)
            if end < 0:
                raise LexError("unterminated hex literal")
            tokens.append(("string", bytes.fromhex(text[i + 2 : end]).decode("utf-8")))
            i = end + 1
        elif ch == "'":
            value, i = quoted(text, i, "'", backslash)
            tokens.append(("string", value))
        elif ch == '"':
            as_string = mode in ("mysql", "mysql-no-backslash-escapes")
            value, i = quoted(text, i, '"', backslash if as_string else None)
            tokens.append(("string" if as_string else "identifier", value))
        elif ch == "`" and (mysql or mode == "sqlite"):
            value, i = quoted(text, i, "`", None)
            tokens.append(("identifier", value))
        elif ch == "[" and mode == "sqlite":
            end = text.find("]", i)
            tokens.append(("identifier", text[i + 1 : end]))
            i = end + 1
        elif m := re.match(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", text[i:]):
            tokens.append(("number", m.group()))
            i += m.end()
        elif m := re.match(r"[A-Za-z_][A-Za-z0-9_$]*", text[i:]):
            tokens.append(("word", m.group()))
            i += m.end()
        else:
            punct = two if two in ("<=", ">=", "<>", "!=", "||") else ch
            tokens.append(("punct", punct))
            i += len(punct)
    return tokens


def check_lexed(sql: str, mode: str, strings: set, names: set) -> list:
    """The skeleton (kinds and the words, numbers, punctuation outside literals) of ``sql`` as ``mode``
    reads it, after checking every literal is one of ``strings`` or ``names`` and nothing else is foreign."""
    skeleton = []
    for kind, value in lex(sql, mode):
        assert kind != "comment", (mode, value)
        if kind == "string":
            assert value in strings, (mode, value)
        elif kind == "identifier":
            assert value in names or (mode.startswith("postgresql") and value == "C"), (mode, value)
        elif kind == "word":
            assert value.upper() in KEYWORDS, (mode, value)
        elif kind == "punct":
            assert value in PUNCTUATION, (mode, value)
        skeleton.append((kind, value if kind in ("word", "number", "punct") else ""))
    return skeleton


def hostile_table(path, n: int = 300, seed: int = 1) -> None:
    rng = random.Random(seed)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(NAMES)
        for _ in range(n):
            value, x = rng.choice(VALUES), rng.uniform(0, 10)
            k = VALUES.index(value) % 3
            writer.writerow([value, f"{x:.3f}", CLASSES[k if x < 6 else (k + 1) % 3]])


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """(data, {algorithm: model}) of the hostile table."""
    from click.testing import CliRunner

    from dtcli.cli import cli

    work = tmp_path_factory.mktemp("hostile")
    data = work / "hostile.csv"
    hostile_table(data)
    models = {}
    for algorithm in ("cart", "c45"):  # (C4.5 spreads a missing value over its branches, which rules cannot)
        models[algorithm] = work / f"{algorithm}.json"
        args = ["train", str(data), "-a", algorithm, "--missing", "majority", "-q", "-o", str(models[algorithm])]
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    return data, models


@pytest.mark.parametrize("algorithm", ["cart", "c45"])
@pytest.mark.parametrize("dialect", sorted(MODES))
def test_every_mode_of_the_dialect_reads_only_the_intended_literals(run, hostile, algorithm, dialect):
    _, models = hostile
    result = run("rules", models[algorithm], "-f", "sql", "--dialect", dialect)
    assert result.exit_code == 0, result.stderr
    sql = result.stdout
    strings = set(VALUES) | set(CLASSES) | set(MARKERS)
    skeletons = [check_lexed(sql, mode, strings, set(NAMES[:2])) for mode in MODES[dialect]]
    assert all(s == skeletons[0] for s in skeletons)
    tokens = lex(sql, MODES[dialect][0])
    found = {v for k, v in tokens if k == "string"}
    assert set(CLASSES) <= found  # every class is returned, as itself
    assert {v for k, v in tokens if k == "identifier"} - {"C"} == set(NAMES[:2])
    assert len(found & set(VALUES)) >= 5 and "'\\', ') OR 1=1 --'" in found  # compared as themselves


@pytest.mark.parametrize("mode", ["mysql", "mysql-ansi-quotes", "postgresql-backslash"])
def test_the_lexer_catches_the_issue_s_sqlite_form_under_backslash_escapes(run, hostile, mode):
    """The SQLite form, safe in SQLite, is code to MySQL's default mode and PostgreSQL with
    standard_conforming_strings off: the check above fails on it."""
    _, models = hostile
    sql = run("rules", models["cart"], "-f", "sql").stdout
    check_lexed(sql, "sqlite", set(VALUES) | set(CLASSES) | set(MARKERS), set(NAMES[:2]))
    with pytest.raises((AssertionError, LexError)):
        check_lexed(sql, mode, set(VALUES) | set(CLASSES) | set(MARKERS), set(NAMES[:2]))


def test_the_issue_s_subset_in_each_dialect():
    """The values ``\\`` and ``) OR 1=1 --`` of the issue, quoted by each dialect, read back as they are."""
    value = "'\\', ') OR 1=1 --'"
    assert Dialect("sqlite").string(value) == "'''\\'', '') OR 1=1 --'''"
    assert Dialect("ansi").string(value) == "'''\\'', '') OR 1=1 --'''"
    assert Dialect("postgresql").string(value) == "E'''\\\\'', '') OR 1=1 --'''"
    assert Dialect("mysql").string(value) == "_utf8mb4 X'" + value.encode().hex().upper() + "'"
    for dialect, modes in MODES.items():
        for mode in modes:
            quoted_value = Dialect(dialect).string(value)
            assert [v for k, v in lex(f"IN ({quoted_value})", mode) if k == "string"] == [value]


def predicted(run, model, data) -> list:
    result = run("predict", model, data, "-f", "json", "-q")
    assert result.exit_code == 0, result.stderr
    return [record["prediction"] for record in json.loads(result.stdout)["predictions"]]


def sqlite_predictions(sql: str, names: list, rows: list) -> list:
    """The CASE expression over an all-TEXT table (as ``sqlite3 .import`` makes) holding ``rows``;
    collation "C" (PostgreSQL's byte order) as SQLite's BINARY."""
    db = sqlite3.connect(":memory:")
    db.create_collation("C", lambda a, b: (a.encode() > b.encode()) - (a.encode() < b.encode()))
    columns = ", ".join('"' + n.replace('"', '""') + '" TEXT' for n in names)
    db.execute(f"CREATE TABLE t ({columns})")
    db.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(names))})", rows)
    out = [r[0] for r in db.execute(f"SELECT {sql} FROM t ORDER BY rowid")]
    db.close()
    return out


@pytest.mark.parametrize("algorithm", ["cart", "c45"])
def test_sqlite_and_ansi_forms_run_in_sqlite_as_predict_classifies(run, hostile, tmp_path, algorithm):
    """New rows with hostile values, missing markers and infinities: SQLite runs the sqlite and
    the ansi form (its CASE guards), and both classify every row as ``dtree predict``."""
    data, models = hostile
    with open(data, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))[1:60]
    cells = ["", "?", "NA", " 2.5 ", "inf", "-Infinity", "+INF", "N/A", "1e400", "7", "5.9"]
    rows = [[v, cells[i % len(cells)] if i % 2 else x, c] for i, (v, x, c) in enumerate(rows)]
    new = tmp_path / "new.csv"
    with open(new, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows([NAMES, *rows])
    expected = predicted(run, models[algorithm], new)
    for dialect in ("sqlite", "ansi"):
        sql = run("rules", models[algorithm], "-f", "sql", "--dialect", dialect).stdout
        assert sqlite_predictions(sql, NAMES, rows) == expected, dialect


def test_the_postgresql_form_runs_in_sqlite_on_values_without_backslashes(run, tmp_path):
    """Its CASE guards, CAST(... AS TEXT) and COLLATE "C" (no E'' string here): as dtree predict."""
    rng = random.Random(3)
    names = ["x value", "colour", "y"]
    colours = ["red", "dark green", "it's", "Red"]
    rows = []
    for _ in range(200):
        x, colour = rng.uniform(-5, 5), rng.choice(colours)
        rows.append([f"{x:.3f}", colour, "yes" if (x > 1) ^ (colour == "red") else "no"])
    train = tmp_path / "train.csv"
    with open(train, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows([names, *rows])
    cells = ["", "?", "NA", "nan", " 2.5 ", "inf", "-inf", "Infinity", "9"]
    new_rows = [[cells[i % len(cells)] if i % 3 == 0 else r[0], r[1], r[2]] for i, r in enumerate(rows[:90])]
    new = tmp_path / "new.csv"
    with open(new, "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows([names, *new_rows])
    for algorithm in ("cart", "c45"):
        model = tmp_path / "m.json"
        assert run("train", train, "-a", algorithm, "--missing", "majority", "-q", "-o", model).exit_code == 0
        sql = run("rules", model, "-f", "sql", "--dialect", "postgresql").stdout
        assert 'COLLATE "C"' in sql and "CASE WHEN" in sql
        assert sqlite_predictions(sql, names, new_rows) == predicted(run, model, new)


def rule_set(names: list, value: str = "p") -> dict:
    attributes = [{"name": names[0], "kind": "numeric"}, {"name": names[1], "kind": "nominal", "values": [value, "q"]}]
    conditions = [{"attribute": names[0], "above": 1.5}, {"attribute": names[1], "in": [value]}]
    return {
        "format": "dtree-rules",
        "schema_version": 1,
        "generator": "dtree 0.1.0",
        "parameters": {},
        "training_data": {},
        "schema": {"attributes": attributes, "target": {"name": "y", "classes": ["u", "v"]}},
        "rules": [{"conditions": conditions, "class": "u", "counts": [1, 0]}],
        "default": {"class": "v", "counts": [0, 1]},
    }


def one_error(result) -> str:
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def test_names_a_dialect_cannot_hold_are_refused_with_one_line(run, tmp_path):
    rules = tmp_path / "r.json"
    rules.write_text(json.dumps(rule_set(["a" * 70, "a" * 63 + "b"])))
    assert "one name to PostgreSQL" in one_error(run("rules", rules, "-f", "sql", "--dialect", "postgresql"))
    assert "longer than MySQL's 64 characters" in one_error(run("rules", rules, "-f", "sql", "--dialect", "mysql"))
    for dialect in ("sqlite", "ansi"):  # no limit there: both names as they are
        result = run("rules", rules, "-f", "sql", "--dialect", dialect)
        assert result.exit_code == 0 and f'"{"a" * 70}"' in result.stdout and result.stderr == ""
    rules.write_text(json.dumps(rule_set(["é" * 40, "x"])))  # 80 bytes: PostgreSQL reads the first 63 (31 é)
    result = run("rules", rules, "-f", "sql", "--dialect", "postgresql")
    assert (
        result.exit_code == 0
        and result.stderr.count("\n") == 1
        and "longer than PostgreSQL's 63 bytes" in result.stderr
    )
    rules.write_text(json.dumps(rule_set(["x", "z"], value="p\x00")))
    for dialect in MODES:
        assert "NUL" in one_error(run("rules", rules, "-f", "sql", "--dialect", dialect))
    assert "--dialect is for SQL output" in one_error(run("rules", rules, "--dialect", "mysql"))


def test_mysql_names_and_strings():
    mysql = Dialect("mysql")
    assert mysql.identifier("a`b\\") == "`a``b\\`"
    assert mysql.string("it's") == "'it''s'"  # the same with and without NO_BACKSLASH_ESCAPES
    assert mysql.string("a\nb") == "_utf8mb4 X'610A62'"
    for bad in ("trailing ", "\U0001f600", "x" * 65, "", "n\x00"):
        with pytest.raises(ParameterError):
            mysql.identifier(bad)
    assert postgresql_name("é" * 40) == "é" * 31  # 63 bytes cut between characters, as PostgreSQL cuts
    with pytest.raises(ParameterError):
        Dialect("ansi").string("\ud83d")  # half of a surrogate pair: no file can hold it


def test_dates_compare_as_text_in_each_dialect_as_predict_compares_them(run, tmp_path):
    """A date column (ISO days) in the sqlite, ansi and postgresql forms, run in SQLite: new days one
    either side of each training day, and missing ones, classified as ``dtree predict`` does."""
    rng = random.Random(5)
    start = date(2024, 1, 1)
    days = [start + timedelta(days=rng.randrange(120)) for _ in range(80)]
    rows = [[d.isoformat(), rng.choice("pq"), "late" if d > start + timedelta(days=60) else "early"] for d in days]
    names = ["day", "g", "when"]
    train = tmp_path / "train.csv"
    train.write_text("day,g,when\n" + "".join(",".join(r) + "\n" for r in rows))
    new_rows = [[(d + timedelta(days=rng.choice([-1, 1]))).isoformat(), g, w] for d, (_, g, w) in zip(days, rows)]
    new_rows += [["", "p", "late"], ["?", "q", "early"]]
    new = tmp_path / "new.csv"
    new.write_text("day,g,when\n" + "".join(",".join(r) + "\n" for r in new_rows))
    model = tmp_path / "m.json"
    assert run("train", train, "-a", "cart", "-q", "-o", model).exit_code == 0
    expected = predicted(run, model, new)
    for dialect in ("sqlite", "ansi", "postgresql"):
        sql = run("rules", model, "-f", "sql", "--dialect", dialect).stdout
        assert "'2024-" in sql and sqlite_predictions(sql, names, new_rows) == expected, dialect


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.csv")), ids=lambda p: p.name)
def test_every_form_run_in_sqlite_classifies_the_sample_tables_as_predict(run, tmp_path, path):
    """The sqlite, ansi and postgresql forms over each sample table as all-TEXT columns, trees
    grown by CART and by C4.5 (missing values to the heavier branch, which rules reproduce)."""
    with open(path, newline="", encoding="utf-8") as f:
        names, *rows = list(csv.reader(f))
    model = tmp_path / "m.json"
    compared = 0
    for args in (("-a", "cart"), ("-a", "c45", "--missing", "majority")):
        if run("train", path, *args, "-q", "-o", model).exit_code != 0:
            continue  # (a table no tree of this kind is grown on)
        compared += 1
        expected = predicted(run, model, path)
        for dialect in ("sqlite", "ansi", "postgresql"):
            sql = run("rules", model, "-f", "sql", "--dialect", dialect).stdout
            assert sqlite_predictions(sql, names, rows) == expected, (args, dialect)
    assert compared == 2
