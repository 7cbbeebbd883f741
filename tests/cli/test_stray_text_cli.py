"""A numeric column with one stray text cell, through the commands: one warning line and the run goes on
(the column nominal), or with --strict exit 1 and the same line as the error."""

from __future__ import annotations

import pytest

ROWS = 3000
LINE = (
    "column 'income' is numeric but line 2502 has 'n/a'; it is read as nominal (fix the cell or write ? for a "
    "missing value; --nominal income reads it as nominal without this warning; --strict refuses it)"
)


@pytest.fixture
def data(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rows = [f"{'n/a' if i == 2500 else 1000 + 37 * i % 9000},{'xyz'[i % 3]},{'ab'[i % 3 % 2]}" for i in range(ROWS)]
    (tmp_path / "d.csv").write_text("income,kind,y\n" + "\n".join(rows) + "\n")
    return "d.csv"


@pytest.mark.parametrize("command", [["train", "-a", "c45", "-f", "text"], ["gain"]], ids=["train", "gain"])
def test_warning_then_the_run_goes_on(run, data, command):
    done = run(*command[:1], data, *command[1:])
    assert done.exit_code == 0
    assert f"Warning: d.csv: {LINE}\n" in done.stderr
    assert done.stderr.count("column 'income' is numeric") == 1
    assert "Warning" not in done.stdout and "n/a" not in done.stderr.split(LINE)[1]


@pytest.mark.parametrize("command", [["train"], ["gain"], ["evaluate", "--cv", "2"]], ids=["train", "gain", "evaluate"])
def test_strict_refuses_with_one_error_line(run, data, command):
    done = run(command[0], data, *command[1:], "--strict")
    assert done.exit_code == 1 and done.stdout == ""
    head = LINE.split("; it is read")[0]
    assert done.stderr == (
        f"Error: d.csv: {head}; refused by --strict (fix the cell or write ? for a missing value, "
        "or use --nominal income to read the column as nominal)\n"
    )


def test_nominal_names_the_column_and_silences_it(run, data):
    done = run("train", data, "--nominal", "income", "--strict", "-q")
    assert done.exit_code == 0 and "income" not in done.stderr.replace("--ignore income", "")


@pytest.mark.parametrize("word", ["n/a", "-", "NULL", "#N/A", "none"])
def test_missing_values_written_as_words_warn_at_any_share(run, tmp_path, word):
    """3 of 20 cells 'n/a' (15%, past the 10% of stray text that makes a column categories): the column was
    read as categories with no word, and the tree fell to one leaf. Every cell that is not a number is a
    common way of writing a missing value: the warning and --strict hold at any share."""
    rows = [f"{word if i in (3, 7, 11) else 20 + i},{'Yes' if i < 10 else 'No'}" for i in range(20)]
    data = tmp_path / "na.csv"
    data.write_text("Age,Play\n" + "\n".join(rows) + "\n")
    said = f"na.csv: column 'Age' is numeric but line 5 has {word!r}; it is read as nominal"
    assert said in run("train", data, "-a", "c45").stderr
    refused = run("train", data, "-a", "c45", "--strict")
    assert refused.exit_code == 1 and "refused by --strict" in refused.stderr
    other = tmp_path / "other.csv"  # (other text at that share: a column of categories, as before)
    other.write_text("Age,Play\n" + "\n".join(r.replace(word, "old") for r in rows) + "\n")
    assert "is numeric" not in run("train", other, "-a", "c45").stderr
