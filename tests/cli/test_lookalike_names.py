"""Look-alike names end to end: every option that names a column or a value, and a model's columns in new data.

A name asked for that differs from a column only invisibly is refused naming
that column and the code points (hand-written here from the Unicode charts);
a name written in another normal form (NFC, NFD) is that column, and gives the
tree the name written as in the file gives.
"""

from __future__ import annotations

import json
import unicodedata

import pytest

from helpers import SAMPLES

WEATHER = (SAMPLES / "weather.csv").read_text()
NFC, NFD = "Caf\u00e9", "Cafe\u0301"


def _data(tmp_path, text: str, name: str = "d.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _error(result) -> str:
    assert result.exit_code == 1 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    return line


@pytest.mark.parametrize(
    ("header", "args", "expected"),
    [
        (
            "Play Tennis",
            ["--target", "Play\u00a0Tennis"],
            "no column 'Play\\xa0Tennis' (from --target); column 'Play Tennis' differs only by a no-break or other "
            "special space (U+0020 where 'Play\\xa0Tennis' has U+00A0)",
        ),
        (
            "Out\u200blook",
            ["--ignore", "Outlook"],
            "no column 'Outlook' (from --ignore); column 'Out\\u200blook' differs only by an invisible character "
            "(U+200B where 'Outlook' has nothing)",
        ),
        (
            "\u041eutlook",
            ["--nominal", "Outlook"],
            "no column 'Outlook' (from --nominal); column 'Оutlook' differs only by a look-alike letter "
            "(U+041E where 'Outlook' has U+004F)",
        ),
        (
            "outlook",
            ["--id", "Outlook"],
            "no column 'Outlook' (from --id); column 'outlook' differs only by case "
            "(U+006F where 'Outlook' has U+004F)",
        ),
    ],
    ids=["target-nbsp", "ignore-zwsp", "nominal-cyrillic", "id-case"],
)
def test_train_options_name_the_near_column(run, tmp_path, header, args, expected):
    data = _data(tmp_path, WEATHER.replace("PlayTennis" if " " in header else "Outlook", header, 1))
    assert _error(run("train", data, *args, "-o", tmp_path / "m.json")) == f"Error: {data}: {expected}"
    assert not (tmp_path / "m.json").exists()


def test_where_names_and_values_and_gain_attribute(run, tmp_path):
    data = _data(tmp_path, WEATHER.replace("Outlook", "Out\u00adlook", 1).replace("Sunny", "Sunny\u2060"))
    said = _error(run("gain", data, "--ignore", "Day", "--where", "Outlook=Sunny"))
    assert said.startswith("Error: --where Outlook=Sunny: no attribute 'Outlook'; attribute 'Out\\xadlook' differs")
    assert said.endswith("(U+00AD where 'Outlook' has nothing)")
    said = _error(run("gain", data, "--ignore", "Day", "--where", "Out\u00adlook=Sunny"))
    assert "has no value 'Sunny'; value 'Sunny\\u2060' differs only by an invisible character" in said
    said = _error(run("gain", data, "--ignore", "Day", "--attribute", "humidity", "--explain"))
    assert "(attribute 'Humidity' differs only by case (U+0048 where 'humidity' has U+0068))" in said


def test_a_cost_file_names_the_near_attribute(run, tmp_path):
    data = _data(tmp_path, WEATHER)
    costs = _data(tmp_path, "attribute,cost\n\u039fmega,2\nHumidity\u200d,3\n", "c.csv")
    said = _error(run("gain", data, "--ignore", "Day", "--costs", costs))
    assert said == f"Error: {costs}, line 2: no attribute 'Οmega'; attributes are: Outlook, Temperature, Humidity, Wind"
    costs.write_text("attribute,cost\nHumidity\u200d,3\n")
    said = _error(run("gain", data, "--ignore", "Day", "--costs", costs))
    assert said == (
        f"Error: {costs}, line 2: no attribute 'Humidity\\u200d'; attribute 'Humidity' differs only by an "
        "invisible character (nothing where 'Humidity\\u200d' has U+200D)"
    )


def test_predict_and_evaluate_name_the_near_columns(run, tmp_path):
    model = tmp_path / "m.json"
    assert run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", model).exit_code == 0
    data = _data(tmp_path, WEATHER.replace("Wind", "W\u0456nd", 1).replace("PlayTennis", "playtennis", 1))
    said = _error(run("predict", model, data))
    assert said == (
        f"Error: {data}: the model needs column(s) 'Wind', which the data lacks; column 'Wіnd' differs only by a "
        "look-alike letter (U+0456 where 'Wind' has U+0069)"
    )
    data.write_text(WEATHER.replace("PlayTennis", "playtennis", 1))
    said = _error(run("evaluate", model, data))
    assert "has no column 'PlayTennis' (the model's target) to judge against; column 'playtennis' differs " in said


def test_two_columns_equal_under_nfc_are_refused(run, tmp_path):
    data = _data(tmp_path, f"{NFC},{NFD},y\na,b,c\nd,e,f\n")
    assert _error(run("gain", data)) == (
        f"Error: {data}: columns 1 and 2: {NFC!r} and {NFD!r} are one name written two ways (Unicode "
        "normalisation: U+00E9 and U+0065 U+0301); rename one of them"
    )
    arff = _data(tmp_path, f"@relation r\n@attribute {NFC} {{a}}\n@attribute {NFD} {{a}}\n@data\na,a\n", "d.arff")
    assert _error(run("gain", arff)).startswith(f"Error: {arff}, line 3: {NFC!r} and {NFD!r} are one name written")


def test_two_parquet_columns_equal_under_nfc_are_refused(run, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({NFC: ["a", "b"], NFD: ["c", "d"], "y": ["e", "f"]}), path)
    assert f"columns 1 and 2: {NFC!r} and {NFD!r} are one name written two ways" in _error(run("gain", path))


def _tree(path) -> dict:
    model = json.loads(path.read_text())
    return {key: model[key] for key in ("root", "schema")}


def test_a_name_in_another_normal_form_is_the_column(run, tmp_path):
    """--target, --ignore and --where given in NFD on a file written in NFC (and the other way round)
    train the tree the names written as in the file train; predict reads an NFD export of the data."""
    nfc = WEATHER.replace("Outlook", "Aperçu").replace("Sunny", "Ensoleillé").replace("PlayTennis", "Joué")
    nfd = unicodedata.normalize("NFD", nfc)
    assert nfd != nfc
    file_nfc, file_nfd = _data(tmp_path, nfc, "nfc.csv"), _data(tmp_path, nfd, "nfd.csv")
    as_written = tmp_path / "a.json"
    assert run("train", file_nfc, "--target", "Joué", "--ignore", "Day", "-q", "-o", as_written).exit_code == 0
    other_form = tmp_path / "b.json"
    args = ["--target", unicodedata.normalize("NFD", "Joué"), "--ignore", unicodedata.normalize("NFD", "Day")]
    assert run("train", file_nfc, *args, "-q", "-o", other_form).exit_code == 0
    assert _tree(as_written) == _tree(other_form)
    predicted = run("predict", as_written, file_nfd)
    assert predicted.exit_code == 0 and "never seen" not in predicted.stderr
    assert predicted.stderr.startswith("Accuracy: 14/14 = 1.000")
    where = unicodedata.normalize("NFD", "Aperçu=Ensoleillé")
    by_nfd = run("gain", file_nfc, "--ignore", "Day", "--where", where, "-q")
    by_nfc = run("gain", file_nfc, "--ignore", "Day", "--where", "Aperçu=Ensoleillé", "-q")
    assert by_nfd.exit_code == 0 and by_nfd.stdout == by_nfc.stdout and "5 rows" in by_nfc.stdout
    from_nfd = tmp_path / "c.json"
    assert run("train", file_nfd, "--target", "Joué", "--ignore", "Day", "-q", "-o", from_nfd).exit_code == 0
    assert _tree(from_nfd) != _tree(as_written)  # (its names and values are written in NFD)
    same = run("diff", as_written, from_nfd, "--data", file_nfc)
    assert same.exit_code == 0 and "are equivalent" in same.stdout and "14 of 14 rows" in same.stdout
