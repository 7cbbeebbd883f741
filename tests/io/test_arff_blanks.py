"""ARFF blanks: tabs and other control characters where Weka takes spaces, recorded against Weka 3.6.14.

Weka's ARFF reader tokenizes with every character up to the space as a
blank, so ``@relation<TAB>w``, ``<TAB>@attribute<TAB>x<TAB>numeric``, a form
feed or a vertical tab after the keyword all read as with spaces; a no-break
space does not (Weka: "keyword @relation expected"). Each file below was run
through ``java -cp weka-3.6.14.jar weka.classifiers.trees.J48 -t FILE`` (CI
has no Java): ``WEKA_READS`` records whether Weka read it, and dtree must read
exactly the table the file with plain spaces gives, or refuse it as Weka does.
"""

from __future__ import annotations

import pytest

from dtcli.errors import DataError
from dtcli.io.read import read_data

ROWS = "sunny,85,no\nrain,70,yes\nsunny,80,no\nrain,65,yes\n"


def weather(relation=" ", attribute=" ", between=" ", lead="", data="@data") -> str:
    """A small ARFF file with the blanks given after @relation, after @attribute, between a name
    and its type, and before each header line."""
    return (
        f"{lead}@relation{relation}w\n"
        f"{lead}@attribute{attribute}outlook{between}{{sunny,rain}}\n"
        f"{lead}@attribute{attribute}temp{between}numeric\n"
        f"{lead}@attribute{attribute}play{between}{{yes,no}}\n"
        f"{lead}{data}\n" + ROWS
    )


WEKA_READS = {  # name: (text, whether Weka 3.6.14 read it)
    "tab-after-relation": (weather(relation="\t"), True),
    "tab-after-attribute": (weather(attribute="\t"), True),
    "tab-between": (weather(between="\t"), True),
    "tabs-everywhere": (weather(relation="\t", attribute="\t", between="\t"), True),
    "mixed-runs": (weather(relation="\t \t", attribute=" \t", between="\t\t"), True),
    "leading-tabs": (weather(lead="\t"), True),
    "tab-after-data": (weather(data="@data\t"), True),
    "form-feed": (weather(relation="\f"), True),
    "vertical-tab": (weather(relation="\v"), True),
    "unit-separator": (weather(relation="\x1f", attribute="\x01"), True),
    "trailing-tabs": (weather(between=" ", data="@data\t").replace("}\n", "}\t\n").replace("c\n", "c\t\n"), True),
    "upper-case-keywords": (weather(attribute="\t").replace("@attribute", "@ATTRIBUTE"), True),
    "no-break-space": (weather(relation="\u00a0"), False),
    "tab-then-nothing": ("@relation\t\n@attribute a {x,y}\n@data\nx\n", False),
}


@pytest.mark.parametrize("name", sorted(WEKA_READS))
def test_blanks_are_read_as_weka_reads_them(tmp_path, name):
    text, weka_reads = WEKA_READS[name]
    path = tmp_path / "t.arff"
    path.write_text(text, encoding="utf-8")
    if not weka_reads:
        with pytest.raises(DataError, match=r"t\.arff, line 1: invalid ARFF"):
            read_data(str(path))
        return
    (tmp_path / "s.arff").write_text(weather(), encoding="utf-8")
    got, spaced = read_data(str(path)), read_data(str(tmp_path / "s.arff"))
    assert list(got.frame.columns) == ["outlook", "temp", "play"] == list(spaced.frame.columns)
    assert got.declared == spaced.declared
    for column in got.frame.columns:
        assert got.frame[column].tolist() == spaced.frame[column].tolist()
    assert got.lines.tolist() == spaced.lines.tolist() == [6, 7, 8, 9]


def test_quoted_names_keep_their_tabs(tmp_path):
    """Blanks are taken as spaces around the keyword only: a quoted name keeps what it holds (Weka
    3.6.14 reads this file, and its tree tests 'out look')."""
    text = "@relation\t'my rel'\n@attribute\t'out look'\t{sunny,rain}\n@attribute\t\"te\tmp\"\tREAL\n"
    text += "@attribute\tplay\t{yes,no}\n@DATA\n" + ROWS
    path = tmp_path / "t.arff"
    path.write_text(text, encoding="utf-8")
    assert list(read_data(str(path)).frame.columns) == ["out look", "te\tmp", "play"]


def test_a_date_declared_with_tabs(tmp_path):
    text = '@relation w\n@attribute\toutlook\t{sunny,rain}\n@attribute\td\tdate\t"yyyy-MM-dd"\n'
    text += '@attribute\tplay\t{yes,no}\n@data\nsunny,"2020-01-01",no\nrain,"2020-01-02",yes\n'
    path = tmp_path / "t.arff"
    path.write_text(text, encoding="utf-8")
    raw = read_data(str(path))
    assert raw.declared["d"].time == "yyyy-MM-dd"
