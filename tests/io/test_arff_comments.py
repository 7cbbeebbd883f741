"""A comment at the end of an ARFF line (an unquoted ``%`` and the rest of the line) is skipped, as Weka's
reader skips it: Weka's own supermarket.arff declares ``@attribute 'total' { low, high} % low < 100``.
A ``%`` inside quotes is part of the value or name; a line that starts with ``%`` is a comment line."""

from __future__ import annotations

from pathlib import Path

import pytest

from dtcli.io.arff.lines import uncommented
from dtcli.io.arff.reader import parse_arff

WITH_COMMENTS = """% a whole-line comment
@relation 'shop % 1' % the relation
@attribute 'a%b' {x, y} % a name with a percent sign
@attribute n numeric\t% a tab before the comment
@attribute c { 'p%', q} % low < 100
@data
x,1,'p%' % first row
y,2,q
% a comment between rows
x,?,q%no space before it
"""


def test_comments_after_declarations_and_rows_are_skipped():
    columns, declared, lines = parse_arff(WITH_COMMENTS, "t.arff")
    assert list(declared) == ["a%b", "n", "c"]
    assert declared["c"].values == ("p%", "q")
    assert columns["a%b"].tolist() == ["x", "y", "x"]
    assert columns["c"].tolist() == ["p%", "q", "q"]
    assert lines.tolist() == [7, 8, 10]  # the file lines of the rows (comment lines are not rows)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ("@attribute a {x, y} % the a", "@attribute a {x, y}"),
        ("@attribute 'a%b' numeric % c", "@attribute 'a%b' numeric"),
        ('"x%y",2', '"x%y",2'),
        ("a,'q\\'%',b %c", "a,'q\\'%',b"),
        ("  % a comment line", "  % a comment line"),
        ("'unclosed %", "'unclosed %"),  # the reader says what is wrong with the quote
        ("x,1,p", "x,1,p"),
    ],
)
def test_uncommented(row, expected):
    assert uncommented(row) == expected


SUPERMARKET = Path("/usr/share/doc/weka/examples/supermarket.arff")


@pytest.mark.skipif(not SUPERMARKET.exists(), reason="Debian's weka examples are not installed")
def test_wekas_supermarket_reads_and_trains_as_j48_does(tmp_path):
    """J48 (Weka 3.6.14) on it: one leaf, 2948 of 4627 training rows correct (recorded)."""
    from click.testing import CliRunner

    from dtcli.cli import cli

    result = CliRunner().invoke(cli, ["train", str(SUPERMARKET), "-a", "c45", "-o", str(tmp_path / "m.json")])
    assert result.exit_code == 0, result.output
    assert "2,948 of 4,627 correct" in result.output
    assert "1 leaf, 1 node" in result.output
