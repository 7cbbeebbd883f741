"""Numbers written for people (2,533.27, 26%, $1,200.50, or a decimal comma past the sampled lines) are
read as text, and a warning says so, with the first such cell and what to do."""

from __future__ import annotations

import pytest


def warnings(run, path, *args) -> list[str]:
    result = run("train", path, "-a", "c45", "-q", *args)
    assert result.exit_code == 0, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("Warning:")]


@pytest.mark.parametrize(
    ("cells", "what", "first", "sep"),
    [
        (['"2,533.27"', '"1,020.00"', "693.5", '"12,001"'], "thousands separators", "2,533.27", ","),
        (["26%", "3.5%", "100%", "0%"], "a percent sign", "26%", ","),
        (['"$1,200.50"', "$300", "$45.10", "$0"], "a currency sign", "$1,200.50", ","),
        # the forms a European spreadsheet writes, in a ; file of decimal commas: once categories with no
        # specific word (with repeated values, no warning at all)
        (["4,5 %", "3,2 %", "7,0 %", "0,5 %"], "a percent sign", "4,5 %", ";"),
        (["1.804,42 €", "2.010,00 €", "950,10 €", "12,00 €"], "a currency sign", "1.804,42 €", ";"),
        (["€1.804,42", "€2.010,00", "€950,10", "€12,00"], "a currency sign", "€1.804,42", ";"),
        (["1 804,42", "2\u00a0010,00", "950,10", "12 000,00"], "thousands separators", "1 804,42", ";"),
    ],
)
def test_numbers_written_for_people_are_named(run, tmp_path, cells, what, first, sep):
    path = tmp_path / "t.csv"
    path.write_text(f"v{sep}cls\n" + "".join(f"{cell}{sep}{'ab'[i % 2]}\n" for i, cell in enumerate(cells * 10)))
    (line,) = [w for w in warnings(run, path) if "written with" in w]
    assert line == (
        f"Warning: {path}: column 'v' holds numbers written with {what} (line 2 has {first!r}), which are read "
        f"as text, a category each: write them as plain numbers, without {what}, to split on them as numbers"
    )


def test_decimal_commas_past_the_sampled_lines_point_to_decimal(run, tmp_path):
    path = tmp_path / "late.csv"
    rows = [f"{i % 50};{'ab'[i % 2]}" for i in range(600)] + [f"{i % 50},5;{'ab'[i % 2]}" for i in range(300)]
    path.write_text("x;cls\n" + "\n".join(rows) + "\n")
    (line,) = [w for w in warnings(run, path) if "decimal comma" in w]
    assert "column 'x' holds numbers written with a decimal comma (line 602 has '0,5')" in line
    assert line.endswith("give --decimal , to read them as numbers")
    assert not [w for w in warnings(run, path, "--decimal", ",") if "decimal comma" in w]


@pytest.mark.parametrize("cells", [["A1", "B2", "C3"], ["C-00017", "C-00018", "C-00019"], ["02139", "10001", "94105"]])
def test_codes_are_not_taken_for_written_numbers(run, tmp_path, cells):
    path = tmp_path / "codes.csv"
    path.write_text("v,cls\n" + "".join(f"{cell},{'ab'[i % 2]}\n" for i, cell in enumerate(cells * 10)))
    assert not [w for w in warnings(run, path) if "written with" in w]


def test_a_quoted_decimal_comma_in_a_comma_file_says_what_can_be_done(run, tmp_path):
    """--decimal , cannot read a file separated by commas: the warning names what can."""
    path = tmp_path / "q.csv"
    path.write_text("x,cls\n" + "".join(f'"{20 + i},5",{"ab"[i % 2]}\n' for i in range(20)))
    (line,) = [w for w in warnings(run, path) if "written with" in w]
    assert line.endswith(
        "holds numbers written with a decimal comma (line 2 has '20,5'), which are read as text, a category "
        "each: write them with a decimal point, or separate the file by ';' and give --decimal ,"
    )


def test_a_decimal_comma_files_text_keeps_its_spaces_and_commas(run, tmp_path):
    """1 804,42 in a ; file of decimal commas: read as text, shown as written (not 1 804.42)."""
    path = tmp_path / "sp.csv"
    path.write_text("v;cls\n" + "".join(f"{c};{'ab'[i % 2]}\n" for i, c in enumerate(["1 804,42", "950,10"] * 4)))
    result = run("train", path, "-a", "id3")
    assert result.exit_code == 0, result.stderr
    assert "v = 1 804,42 [a 4, b 0]" in result.stdout and "1 804.42" not in result.stdout
