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
