"""The name rule (model/colnames.py): NFC-equal names are one name; a near miss is named with its code points.

The code points expected are written out by hand from the Unicode charts
(U+041E CYRILLIC CAPITAL LETTER O, U+200B ZERO WIDTH SPACE, ...), not taken
from the module.
"""

from __future__ import annotations

import unicodedata

import pytest

from dtcli.model.colnames import aliases, clash, clash_text, find, finder, missing_text, near, same_name

NFC = "Caf\u00e9"
NFD = "Cafe\u0301"


def test_nfc_and_nfd_are_one_name_and_nothing_else_is_folded():
    assert NFC != NFD and same_name(NFC, NFD) and same_name(NFD, NFC)
    assert unicodedata.normalize("NFC", NFD) == NFC  # (the premise)
    for other in ("caf\u00e9", "Caf\u00e9 ", "Caf\u00e9\u200b", "\u0421af\u00e9"):
        assert not same_name(NFC, other)


def test_find_prefers_the_exact_name_then_the_other_normal_form():
    assert find(NFD, ["x", NFC]) == NFC
    assert find(NFC, [NFD, NFC]) == NFC  # exact first, wherever it is
    assert find("K", ["\u212a"]) == "\u212a"  # KELVIN SIGN: its NFC form is the Latin K
    assert find("cafe", [NFC, NFD]) is None
    assert finder(["x", NFC])(NFD) == NFC and finder(["x"])("y") is None


def test_aliases_add_the_header_spelling_of_a_wanted_name():
    assert aliases({NFC, "y"}, ["a", NFD, "y"]) == {NFC, NFD, "y"}
    assert aliases({"a"}, ["a", "b"]) == {"a"}


def test_clash_finds_one_name_written_two_ways():
    assert clash(["a", NFC, "b", NFD]) == (1, 3)
    assert clash(["a", "b", NFC]) is None
    assert clash(["a", "a"]) is None  # the same spelling twice is the readers' own message
    assert clash_text(NFC, NFD) == (
        f"{NFC!r} and {NFD!r} are one name written two ways (Unicode normalisation: U+00E9 and U+0065 U+0301)"
    )


@pytest.mark.parametrize(
    ("column", "kind", "points"),
    [
        ("outlook", "case", "U+006F where 'Outlook' has U+004F"),
        ("Outlook ", "leading or trailing spaces", "U+0020 where 'Outlook' has nothing"),
        (" Outlook", "leading or trailing spaces", "U+0020 where 'Outlook' has nothing"),
        ("Out\u200blook", "an invisible character", "U+200B where 'Outlook' has nothing"),
        ("Out\u200clook", "an invisible character", "U+200C where 'Outlook' has nothing"),
        ("Out\u200dlook", "an invisible character", "U+200D where 'Outlook' has nothing"),
        ("Out\u2060look", "an invisible character", "U+2060 where 'Outlook' has nothing"),
        ("\ufeffOutlook", "an invisible character", "U+FEFF where 'Outlook' has nothing"),
        ("Out\u00adlook", "an invisible character", "U+00AD where 'Outlook' has nothing"),
        ("\u041eutlook", "a look-alike letter", "U+041E where 'Outlook' has U+004F"),
        ("\u039futlook", "a look-alike letter", "U+039F where 'Outlook' has U+004F"),
        ("Outl\u043eok", "a look-alike letter", "U+043E where 'Outlook' has U+006F"),
        (
            "\u041eutl\u043eok",
            "a look-alike letter",
            "U+041E where 'Outlook' has U+004F; U+043E where 'Outlook' has U+006F",
        ),
        ("OUTLOOK\u200b", "an invisible character and case", None),
    ],
)
def test_a_near_miss_is_named_with_the_code_points_that_differ(column, kind, points):
    text = near("Outlook", ["Day", column, "Play"])
    assert text is not None and text.startswith(f"{column!r} differs only by {kind} (")
    if points is not None:
        assert text.endswith(f"({points})")


@pytest.mark.parametrize(
    ("asked", "column", "kind", "points"),
    [
        (
            "Play Tennis",
            "Play\u00a0Tennis",
            "a no-break or other special space",
            "U+00A0 where 'Play Tennis' has U+0020",
        ),
        (
            "Play Tennis",
            "Play\u202fTennis",
            "a no-break or other special space",
            "U+202F where 'Play Tennis' has U+0020",
        ),
        ("\u00e9t\u00e9", "E\u0301te\u0301", "Unicode normalisation and case", None),
    ],
)
def test_spaces_and_normalisation_with_case(asked, column, kind, points):
    text = near(asked, [column])
    assert text is not None and text.startswith(f"{column!r} differs only by {kind} (")
    if points is not None:
        assert text.endswith(f"({points})")


def test_an_ordinary_typo_keeps_the_list():
    columns = ["Day", "Outlook", "Play"]
    assert near("Outlok", columns) is None and near("Temperature", columns) is None
    assert missing_text("Outlok", columns) == "columns are: Day, Outlook, Play"
    assert missing_text("Sunny", ("Sunny ", "Rain"), "value", "its values are").startswith("value 'Sunny ' differs")
    assert missing_text("Fog", ("Sunny", "Rain"), "value", "its values are") == "its values are: Sunny, Rain"
