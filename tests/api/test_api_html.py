"""The HTML Jupyter shows for gain tables, reports, differences, explanations and estimators escapes every name."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pandas as pd
import pytest

import dtcli
from helpers import SAMPLES

HOSTILE = "<script>alert('x')</script> \"A&B\""
VALUE = '<b>Sun & "moon"</b>'
MARKUP = {"table", "caption", "thead", "tbody", "tr", "th", "td", "p", "br"}


class Parsed(HTMLParser):
    """The tags of an HTML text and its text, unescaped."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags, self.data = set(), []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)

    def handle_data(self, data):
        self.data.append(data)


def hostile_frame() -> pd.DataFrame:
    frame = pd.read_csv(SAMPLES / "weather.csv").drop(columns="Day")
    frame = frame.rename(columns={"Outlook": HOSTILE, "PlayTennis": f"Play {HOSTILE}"})
    frame[HOSTILE] = frame[HOSTILE].replace({"Sunny": VALUE})
    frame["Humidity"] = frame["Humidity"].replace({"High": VALUE})
    frame[f"Play {HOSTILE}"] = frame[f"Play {HOSTILE}"].replace({"No": f"No {HOSTILE}"})
    return frame


def only_tables(html: str) -> list[str]:
    """The text cells of ``html``, after checking that its only markup is dtree's tables and paragraphs."""
    parsed = Parsed(html)
    assert parsed.tags <= MARKUP, parsed.tags
    return parsed.data


def test_gain_table_escapes_names_and_values():
    frame = hostile_frame()
    cells = only_tables(dtcli.gain(frame, target=f"Play {HOSTILE}")._repr_html_())
    assert f"* {HOSTILE}" in cells  # the chosen attribute, Outlook, as written
    assert any(HOSTILE in c and "rows" in c for c in cells)  # the caption names the target
    cells = only_tables(dtcli.gain(frame, target=f"Play {HOSTILE}", where=f"Humidity={VALUE}")._repr_html_())
    assert any(f"where Humidity={VALUE}:" in c for c in cells)  # the caption's where condition


def test_report_escapes_class_labels():
    report = dtcli.cross_validate(hostile_frame(), target=f"Play {HOSTILE}", folds=2)
    cells = only_tables(report._repr_html_())
    assert cells.count(f"No {HOSTILE}") == 3  # a row of the class table and of the matrix, a matrix column
    assert str(report.document["summary"]["correct"]) in cells


def test_difference_escapes_conditions_and_labels():
    frame = hostile_frame()
    a = dtcli.fit(frame, target=f"Play {HOSTILE}")
    b = dtcli.fit(frame, target=f"Play {HOSTILE}", max_depth=1)
    cells = only_tables(dtcli.diff(a, b)._repr_html_())
    assert f"{HOSTILE} = {VALUE}" in cells and f"leaf -> No {HOSTILE} [No {HOSTILE} 3, Yes 2]" in cells


def test_explanation_escapes_values():
    model = dtcli.fit(hostile_frame(), target=f"Play {HOSTILE}")
    row = {HOSTILE: VALUE, "Temperature": "Hot", "Humidity": VALUE, "Wind": "Weak"}
    cells = only_tables(model.explain(row)._repr_html_())
    assert cells[:3] == ["Path from the root", "condition", "value"]
    assert (
        cells[3:7] == [f"{HOSTILE} = {VALUE}", VALUE, f"Humidity = {VALUE}", VALUE]
        and cells[-1] == f"prediction: {'No ' + HOSTILE!r}"
    )
    stopped = only_tables(model.explain({**row, HOSTILE: None})._repr_html_())
    assert stopped == [f"{HOSTILE}: missing or never seen in training; the path stops here", "prediction: 'Yes'"]


def test_model_picture_is_xml_with_the_names_as_text():
    svg = dtcli.fit(hostile_frame(), target=f"Play {HOSTILE}")._repr_svg_()
    texts = [e.text for e in ET.fromstring(svg.encode()).iter() if e.text]
    assert HOSTILE in texts and f"= {VALUE}" in texts
    assert not any(e.tag.endswith("script") for e in ET.fromstring(svg.encode()).iter())


def test_fitted_estimator_html_escapes_feature_names():
    pytest.importorskip("sklearn")
    from dtcli.sklearn import C45Classifier

    frame = hostile_frame()
    fitted = C45Classifier().fit(frame.drop(columns=f"Play {HOSTILE}"), frame[f"Play {HOSTILE}"])
    html = fitted._repr_html_()
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    texts = [e.text for e in ET.fromstring(svg.encode()).iter() if e.text]
    assert HOSTILE in texts
    assert "<script>alert" not in html
