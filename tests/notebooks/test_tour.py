"""Executes tests/notebooks/tour.ipynb in a real Jupyter kernel (nbclient, ipykernel) and checks what it shows.

The kernel is this Python (a kernelspec written to a temporary JUPYTER_PATH, with its own runtime,
config and IPython directories), so the run needs no Jupyter installation or configuration and no
network. The references: Mitchell's worked example (gain 0.247 for Outlook, ID3's tree of his
figure 3.1), Weka J48's leave-one-out cross-validation of weather.nominal (recorded below),
J48's tree on iris (5 leaves, 9 nodes, root petalwidth) and scikit-learn's DecisionTreeClassifier.
"""

from __future__ import annotations

import json
import os
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("sklearn")

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = Path(__file__).with_name("tour.ipynb")
SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = 'Wind <script>alert("&")</script>'
# java -cp weka-3.6.14.jar weka.classifiers.trees.J48 -t weather.nominal.arff -x 14 (leave-one-out, so no
# seed decides the folds): "Correctly Classified Instances 7", "Kappa statistic 0.0392", the matrix below
WEKA_LOO = {"correct": 7, "incorrect": 7, "kappa": "0.0392", "matrix": [["yes", "4", "5"], ["no", "2", "3"]]}
# Mitchell, Machine Learning (1997), figure 3.1: ID3's tree of the PlayTennis table
MITCHELL = """\
Outlook = Sunny
|   Humidity = High: No (3.0)
|   Humidity = Normal: Yes (2.0)
Outlook = Overcast: Yes (4.0)
Outlook = Rain
|   Wind <script>alert("&")</script> = Weak: Yes (3.0)
|   Wind <script>alert("&")</script> = Strong: No (2.0)
"""


class Tables(HTMLParser):
    """The tables of an HTML text (rows of cell texts, unescaped), its tags and its text outside tables."""

    def __init__(self, text: str):
        super().__init__()
        self.tables, self.tags, self.captions, self.text = [], set(), [], []
        self._where = None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.tables[-1][-1].append("")
        self._where = tag if tag in ("td", "th", "caption") else self._where

    def handle_endtag(self, tag):
        if tag in ("td", "th", "caption"):
            self._where = None

    def handle_data(self, data):
        if self._where in ("td", "th"):
            self.tables[-1][-1][-1] += data
        elif self._where == "caption":
            self.captions.append(data)
        else:
            self.text.append(data)


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """The notebook after a run: {tag: the cell}."""
    home = tmp_path_factory.mktemp("jupyter")
    spec = home / "kernels" / "dtree-test"
    spec.mkdir(parents=True)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    kernel = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dtree tests",
        "language": "python",
        "env": {"PYTHONPATH": path},
    }
    (spec / "kernel.json").write_text(json.dumps(kernel))
    isolated = {"JUPYTER_PATH": str(home), "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "JUPYTER_NO_CONFIG": "1",
                "JUPYTER_CONFIG_DIR": str(home / "config"), "IPYTHONDIR": str(home / "ipython")}  # fmt: skip
    saved = {key: os.environ.get(key) for key in isolated}
    os.environ.update(isolated)
    try:
        notebook = nbformat.read(NOTEBOOK, as_version=4)
        client = nbclient.NotebookClient(
            notebook, timeout=60, startup_timeout=60, kernel_name="dtree-test", resources={"metadata": {"path": ROOT}}
        )
        client.execute()
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return {cell.metadata["tags"][0]: cell for cell in notebook.cells if cell.cell_type == "code"}


def shown(cell, mime: str) -> str:
    """What the cell's result shows as ``mime``."""
    results = [o for o in cell.outputs if o.output_type == "execute_result"]
    assert len(results) == 1, cell.source
    return results[0].data[mime]


def printed(cell) -> str:
    return "".join(o.text for o in cell.outputs if o.output_type == "stream" and o.name == "stdout")


def svg_texts(svg: str) -> list[str]:
    """The lines of text of the SVG, in document order (it must parse as XML): the title, the legend, the
    branches' conditions, then each box's lines (the attribute tested or the class, the counts, the score)."""
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    return [e.text for e in root.iter() if e.tag in (f"{SVG}text", f"{SVG}tspan") and e.text]


def test_no_cell_failed_or_warned(executed):
    for cell in executed.values():
        kinds = [(o.output_type, o.get("name")) for o in cell.outputs]
        assert ("error", None) not in kinds and ("stream", "stderr") not in kinds, (cell.source, cell.outputs)
    assert NOTEBOOK.read_text().count('"outputs": []') == len(executed)  # (the committed file keeps none)


def test_a_model_shows_as_its_svg_picture(executed):
    texts = svg_texts(shown(executed["model-path"], "image/svg+xml"))
    assert texts[0] == "C4.5 tree for PlayTennis: 5 leaves, 8 nodes, depth 2"  # J48's: 5 leaves, size 8
    boxes = texts[texts.index("= Strong") + 1 :]
    assert boxes[:3] == ["Outlook", "[9+, 5-]", "gain ratio 0.156"]  # J48: 0.156 (Quinlan 1993, ch. 2)
    below = ["Humidity", "[2+, 3-]", "gain ratio 1.000", "No", "[0+, 3-]", "Yes", "[2+, 0-]", "Yes", "[4+, 0-]"]
    below += ["Wind", "[3+, 2-]", "gain ratio 1.000", "Yes", "[3+, 0-]", "No", "[0+, 2-]"]
    assert boxes[3:] == below


def test_a_dataframes_tree_is_mitchells_and_its_names_stay_text(executed):
    cell = executed["model-frame"]
    assert printed(cell) == MITCHELL
    svg = shown(cell, "image/svg+xml")
    assert "<script" not in svg
    texts = svg_texts(svg)
    assert texts.count(HOSTILE) == 1 and texts.count("Outlook") == 1  # the box of each split


def test_explain_shows_the_path_as_a_table(executed):
    found = Tables(shown(executed["explain"], "text/html"))
    assert found.tables == [[["condition", "value"], ["Outlook = Sunny", "Sunny"], ["Humidity = High", "High"]]]
    assert "".join(found.text) == "prediction: 'No'"


def test_gain_table_has_mitchells_numbers(executed):
    found = Tables(shown(executed["gain"], "text/html"))
    (table,) = found.tables
    header, rows = table[0], {row[0]: dict(zip(table[0], row)) for row in table[1:]}
    assert header[:2] == ["name", "kind"] and list(rows) == ["* Outlook", "Humidity", "Wind", "Temperature"]
    assert [round(float(rows[n]["gain"]), 3) for n in rows] == [0.247, 0.152, 0.048, 0.029]  # Mitchell 3.4.1.2
    assert found.captions == ["PlayTennis: 14 rows [9+, 5-], entropy 0.940, Gini 0.459"]
    assert "".join(found.text) == "* chosen by information gain: Outlook"


def test_gain_table_escapes_a_hostile_name(executed):
    html = shown(executed["gain-frame"], "text/html")
    found = Tables(html)
    assert "script" not in found.tags
    names = [row[0] for row in found.tables[0][1:]]
    assert names == [f"* {HOSTILE}", "Temperature", "Humidity"]
    rows = {row[0]: row for row in found.tables[0][1:]}
    assert float(rows[f"* {HOSTILE}"][5]) == pytest.approx(0.971, abs=5e-4)  # Rain: 3 Weak all Yes, 2 Strong all No


def test_cross_validation_report_is_wekas(executed):
    found = Tables(shown(executed["cross-validate"], "text/html"))
    about, summary, classes, matrix = found.tables
    assert dict(map(tuple, about[1:]))["folds"] == "14"
    figures = dict(map(tuple, summary[1:]))
    assert int(figures["correct"]) == WEKA_LOO["correct"] and int(figures["incorrect"]) == WEKA_LOO["incorrect"]
    assert round(float(figures["kappa"]), 4) == float(WEKA_LOO["kappa"])
    assert matrix[1:] == WEKA_LOO["matrix"]
    assert [row[0] for row in classes[1:]] == ["yes", "no", "weighted average", "macro average"]


def test_diff_lists_where_the_trees_part(executed):
    found = Tables(shown(executed["diff"], "text/html"))
    assert "".join(found.text).startswith("Trees first (A) and second (B) differ")
    (table,) = found.tables
    assert table[0] == ["where", "what differs", "A", "B"]
    assert table[1:] == [  # Mitchell's tree against its root alone (max_depth=1): split under Sunny and Rain
        ["Outlook = Sunny", "leaf against split", "split on Humidity [No 3, Yes 2]", "leaf -> No [No 3, Yes 2]"],
        ["Outlook = Sunny -> Humidity = High", "only in A", "leaf -> No [No 3, Yes 0]", "(none)"],
        ["Outlook = Sunny -> Humidity = Normal", "only in A", "leaf -> Yes [No 0, Yes 2]", "(none)"],
        ["Outlook = Rain", "leaf against split", "split on Wind [No 2, Yes 3]", "leaf -> Yes [No 2, Yes 3]"],
        ["Outlook = Rain -> Wind = Weak", "only in A", "leaf -> Yes [No 0, Yes 3]", "(none)"],
        ["Outlook = Rain -> Wind = Strong", "only in A", "leaf -> No [No 2, Yes 0]", "(none)"],
    ]


def test_fitted_estimators_show_parameters_and_tree(executed):
    html = shown(executed["c45-pipeline"], "text/html")
    assert "C45Classifier" in html and "sk-estimator" in html  # scikit-learn's box ...
    svg = html[html.index("<svg") : html.index("</svg>") + len("</svg>")]
    texts = svg_texts(svg)  # ... and the tree: J48's on iris (5 leaves, 9 nodes), the root on the petal width
    assert texts[0] == "C4.5 tree for y: 5 leaves, 9 nodes, depth 4" and texts[5:7] == ["<= 0.6", "> 0.6"]
    assert texts[texts.index("> 1.7") + 1] == "petal width (cm)"  # the root's box
    assert svg_texts(shown(executed["c45-pipeline"], "image/svg+xml")) == texts
    cart = executed["cart-pipeline"]
    ours, theirs = printed(cart).split()
    assert float(ours) == float(theirs) == pytest.approx(0.96)
    assert "CARTClassifier" in shown(cart, "text/html") and "<svg" in shown(cart, "text/html")


def test_an_unfitted_estimator_shows_as_scikit_learn_shows_it(executed):
    cell = executed["unfitted"]
    (result,) = [o for o in cell.outputs if o.output_type == "execute_result"]
    assert "image/svg+xml" not in result.data and "<svg" not in result.data["text/html"]
    assert "CARTClassifier" in result.data["text/html"]
