"""Classes that differ only in case or blanks (a spreadsheet typed by hand) are named in one warning."""

from __future__ import annotations

from dtcli.model.value_text import lookalike_classes, lookalike_message


def test_groups_of_classes_spelt_alike_in_their_order():
    found = lookalike_classes(["Yes", "yes", "YES", "No", "NO", "no", "maybe"])
    assert found == [["Yes", "yes", "YES"], ["No", "NO", "no"]]
    assert lookalike_classes(["a", " A"]) == [["a", " A"]]
    assert lookalike_classes(["Yes", "No", "Maybe"]) == []
    assert lookalike_classes(["Straße", "STRASSE"]) == [["Straße", "STRASSE"]]  # (casefold)


def test_the_message_names_the_file_column_and_groups_and_says_what_to_do():
    groups = [[c, c.lower()] for c in "ABCDE"]
    text = lookalike_message("d.csv", "Play", groups)
    said = "d.csv: the class column 'Play' has values that differ only in case or blanks (A, a; B, b; C, c)"
    assert text.startswith(said[:-1])
    assert "and 2 more group(s)" in text and text.endswith("write them alike if they are one class")


def test_train_gain_and_evaluate_warn_and_quiet_silences_it(run, tmp_path):
    data = tmp_path / "mixed.csv"
    data.write_text("Temp,Play\n20,Yes\n21,yes\n22,YES\n23,No\n24,NO\n25,no\n26,Yes\n27,No\n")
    said = "the class column 'Play' has values that differ only in case or blanks (Yes, yes, YES; No, NO, no)"
    commands = (("train", data, "-a", "c45"), ("gain", data), ("gain", data, "-a", "cart"))
    commands += (("evaluate", data, "-a", "c45", "--cv", "2"),)
    for args in commands:
        result = run(*args)
        assert result.exit_code == 0 and result.stderr.count(said) == 1, (args, result.stderr)
    quiet = run("train", data, "-q", "-o", tmp_path / "m.json")
    assert said not in quiet.stderr
    plain = tmp_path / "plain.csv"
    plain.write_text("Temp,Play\n20,Yes\n21,No\n")
    assert "differ only in case" not in run("train", plain).stderr
