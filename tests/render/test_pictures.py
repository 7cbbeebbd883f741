"""Pictures of trees (DOT, mermaid, SVG): structure checked on Mitchell's PlayTennis tree, quoting of
hostile names, cutting at a depth, and deep trees; Graphviz accepts the DOT when it is installed."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from trees import chain, fit

from dtcli.model.table import NOMINAL, Attribute, Schema, Table
from dtcli.model.tree import Node, NominalTest, Tree
from dtcli.render.colors import CLASS_FILLS, HIGH, LOW
from dtcli.render.dot import dot
from dtcli.render.mermaid import mermaid
from dtcli.render.picture import CUT, LEAF, SPLIT, picture
from dtcli.render.printable import shown
from dtcli.render.svg import svg

SVG = "{http://www.w3.org/2000/svg}"
# Mitchell's Figure 3.1 / Table 3.2 tree: root Outlook, Humidity under Sunny, Wind under Rain.
MITCHELL = {
    "= Sunny": "Humidity",
    "= Overcast": "Yes",
    "= Rain": "Wind",
    "= High": "No",
    "= Normal": "Yes",
    "= Weak": "Yes",
    "= Strong": "No",
}


@pytest.fixture
def tennis(weather):
    tree, _ = fit(weather, "id3")
    return tree


def dot_parts(source: str):
    """(nodes: id -> (label, attributes text), edges: [(parent, child, label)]) of dtree's DOT."""
    nodes = {m[0]: (m[1], m[2]) for m in re.findall(r'^  (n\d+) \[label="((?:[^"\\]|\\.)*)"(.*)\];$', source, re.M)}
    edges = re.findall(r'^  (n\d+) -> (n\d+) \[label="((?:[^"\\]|\\.)*)"\];$', source, re.M)
    return nodes, edges


def test_dot_has_mitchells_tree(tennis):
    source = dot(picture(tennis, heading="ID3 tree"))
    nodes, edges = dot_parts(source)
    assert len(nodes) == 8 and len(edges) == 7
    assert nodes["n0"][0] == "Outlook\\n[9+, 5-]\\ngain 0.247"  # Mitchell's 0.246, computed exactly
    assert {label: nodes[child][0].split("\\n")[0] for _, child, label in edges} == MITCHELL
    leaves = {child for _, child, _ in edges} - {parent for parent, _, _ in edges}
    fills = {nodes[n][0].split("\\n")[0]: re.search(r'fillcolor="(#\w+)"', nodes[n][1]).group(1) for n in leaves}
    assert fills == {"No": CLASS_FILLS[0], "Yes": CLASS_FILLS[1]}  # one colour per class, class order
    assert source.startswith("digraph tree {\n") and source.endswith("}\n")


def odd_tree() -> Tree:
    """A one-split tree whose names and values hold quotes, backslashes, control characters and markup."""
    names = ('say "hi"', "back\\slash", "two\nlines", "<b>&amp;</b> #1 | `x`; %%", "tab\there")
    attribute = Attribute('A "quoted" \\ name', NOMINAL, names)
    classes = ('class "one"', "class\\two")
    root = Node(np.array([3.0, 2.0]), 0, NominalTest(attribute))
    root.children = [Node(np.array([1.0, 0.0]) if k % 2 == 0 else np.array([0.0, 1.0]), k % 2) for k in range(5)]
    schema = Schema((attribute,), Attribute("t\x1by", NOMINAL, classes))
    return Tree(schema, root, "id3", {"criterion": "gain"})


def dot_unquote(text: str) -> str:
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) == "n" else m.group(1), text)


def test_dot_quotes_every_name_and_value():
    tree = odd_tree()
    nodes, edges = dot_parts(dot(picture(tree)))
    assert len(nodes) == 6 and len(edges) == 5  # every quote escaped: the regex finds each whole label
    assert dot_unquote(nodes["n0"][0]).split("\n")[0] == shown(tree.root.test.attribute.name)
    values = tree.root.test.attribute.values
    assert [dot_unquote(label) for _, _, label in edges] == [f"= {shown(v)}" for v in values]
    assert "\\\\n" in [label for _, _, label in edges][2]  # a newline in a value shows as \n, no line break


def run_dot(source: str) -> str:
    out = subprocess.run(["dot", "-Tsvg"], input=source, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "Warning" not in out.stderr and "Error" not in out.stderr, out.stderr
    return out.stdout


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz (dot) is not installed")
def test_graphviz_accepts_the_dot(tennis):
    drawn = ET.fromstring(run_dot(dot(picture(tennis))).encode())
    texts = [t.text for t in drawn.iter(f"{SVG}text")]
    assert "= Sunny" in texts and "Humidity" in texts and texts.count("[0+, 3-]") == 1
    odd = ET.fromstring(run_dot(dot(picture(odd_tree(), max_depth=0))).encode())
    texts = [t.text for t in odd.iter(f"{SVG}text")]
    assert shown(odd_tree().root.test.attribute.name) not in texts  # cut at the root: a leaf box
    assert 'class "one"' in texts


def mermaid_unquote(text: str) -> str:
    return re.sub(r"#(\d+);", lambda m: chr(int(m.group(1))), text)


def test_mermaid_flowchart(tennis):
    lines = mermaid(picture(tennis, heading="ID3 tree")).splitlines()
    assert lines[:4] == ["---", 'title: "ID3 tree for PlayTennis: 5 leaves, 8 nodes, depth 2"', "---", "flowchart TD"]
    labels = dict(re.findall(r'^  (n\d+)\["(.*)"\]$', "\n".join(lines), re.M))
    edges = re.findall(r'^  (n\d+) -->\|"(.*)"\| (n\d+)$', "\n".join(lines), re.M)
    assert len(labels) == 8 and len(edges) == 7
    assert {label: labels[child].split("<br/>")[0] for _, label, child in edges} == MITCHELL
    assert "  class n2,n7 c0" in lines and "  class n3,n4,n6 c1" in lines  # No, Yes leaves


def test_mermaid_writes_syntax_characters_as_entity_codes():
    tree = odd_tree()
    text = mermaid(picture(tree))
    labels = re.findall(r'^  n\d+\["(.*)"\]$', text, re.M)
    edges = re.findall(r'^  n\d+ -->\|"(.*)"\| n\d+$', text, re.M)
    assert len(labels) == 6 and len(edges) == 5
    for raw in labels + edges:  # what is left once the entity codes and line breaks are out: plain text
        assert not re.search(r'["#&<>|`;\\]', re.sub(r"#\d+;", "", raw.replace("<br/>", "")))
    values = tree.root.test.attribute.values
    assert [mermaid_unquote(e) for e in edges] == [f"= {shown(v)}" for v in values]


def boxes_of(document: str):
    """(x, y, width, height, fill, dashed, lines) of each node box of dtree's SVG."""
    root = ET.fromstring(document.encode())
    rects = [r for r in root.iter(f"{SVG}rect") if r.get("rx")]
    texts = [t for t in root.iter(f"{SVG}text") if t.find(f"{SVG}tspan") is not None]
    assert len(rects) == len(texts)
    return [
        (
            float(r.get("x")),
            float(r.get("y")),
            float(r.get("width")),
            float(r.get("height")),
            r.get("fill"),
            r.get("stroke-dasharray") is not None,
            [s.text for s in t.iter(f"{SVG}tspan")],
        )
        for r, t in zip(rects, texts)
    ]


def test_svg_is_valid_xml_with_the_tree_and_a_legend(tennis):
    document = svg(picture(tennis, heading="ID3 tree"))
    root = ET.fromstring(document.encode())
    assert root.find(f"{SVG}title").text == "ID3 tree for PlayTennis: 5 leaves, 8 nodes, depth 2"
    boxes = boxes_of(document)
    assert [b[6][0] for b in boxes] == ["Outlook", "Humidity", "No", "Yes", "Yes", "Wind", "Yes", "No"]
    assert boxes[0][6] == ["Outlook", "[9+, 5-]", "gain 0.247"]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert all(label in texts for label in MITCHELL)
    legend = [(r.get("fill"), r.get("x")) for r in root.iter(f"{SVG}rect") if r.get("width") == "13"]
    assert [f for f, _ in legend] == [CLASS_FILLS[0], CLASS_FILLS[1]] and "No" in texts and "Yes" in texts
    assert svg(picture(tennis, heading="ID3 tree")) == document  # the same bytes every time


def test_svg_boxes_do_not_overlap_and_parents_are_centred(tennis):
    boxes = boxes_of(svg(picture(tennis)))
    shown_picture = picture(tennis)
    for a in range(len(boxes)):
        for b in range(a + 1, len(boxes)):
            (xa, ya, wa, _), (xb, yb, wb, _) = boxes[a][:4], boxes[b][:4]
            assert ya != yb or xa + wa <= xb or xb + wb <= xa
    for box in shown_picture.boxes:
        if box.children:
            first, last = boxes[box.children[0]], boxes[box.children[-1]]
            x, y, w, h = boxes[box.id][:4]
            assert abs((x + w / 2) - ((first[0] + first[2] / 2 + last[0] + last[2] / 2) / 2)) < 0.2
            assert all(boxes[c][1] > y + h for c in box.children)
    leaves = [boxes[b.id][0] for b in shown_picture.boxes if not b.children]
    assert leaves == sorted(leaves)  # leaves left to right in the tree's order


def test_svg_escapes_text_and_survives_any_name():
    tree = odd_tree()
    document = svg(picture(tree))
    root = ET.fromstring(document.encode())  # valid XML: &, <, > and quotes escaped, ESC written as \x1b
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for value in tree.root.test.attribute.values:
        assert f"= {shown(value)}" in texts
    assert root.find(f"{SVG}title").text.startswith("Decision tree for t\\x1by:")
    assert "\x1b" not in document and "\ufffe" not in svg(picture(noncharacter_tree()))


def noncharacter_tree() -> Tree:
    attribute = Attribute("a\ufffeb", NOMINAL, ("x", "y"))
    root = Node(np.array([1.0, 1.0]), 0, NominalTest(attribute), [Node(np.array([1.0, 0.0]), 0)])
    root.children.append(Node(np.array([0.0, 1.0]), 1))
    return Tree(Schema((attribute,), Attribute("c", NOMINAL, ("p", "q"))), root, "id3", {})


def test_a_cut_picture_marks_the_cut_splits(tennis):
    shown_picture = picture(tennis, max_depth=1)
    kinds = [(b.lines[0], b.kind) for b in shown_picture.boxes]
    assert kinds == [("Outlook", SPLIT), ("No", CUT), ("Yes", LEAF), ("Yes", CUT)]
    assert shown_picture.boxes[1].lines == ("No", "[2+, 3-]", "cut: 1 more level, 2 nodes")
    assert shown_picture.cut and not picture(tennis, max_depth=2).cut
    dashed = [b[5] for b in boxes_of(svg(shown_picture))]
    assert dashed == [False, True, False, True]
    assert dot(shown_picture).count("dashed") == 2 and "stroke-dasharray" in mermaid(shown_picture)
    assert [b.kind for b in picture(tennis, max_depth=0).boxes] == [CUT]


def test_many_classes_are_counted_as_bare_numbers_with_the_order_in_the_legend():
    table = iris_like()
    tree, _ = fit(table, "c45")
    shown_picture = picture(tree)
    assert shown_picture.order == "[Iris-setosa, Iris-versicolor, Iris-virginica]"
    assert shown_picture.boxes[0].lines[1] == "[50, 50, 50]"
    root = ET.fromstring(svg(shown_picture).encode())
    assert "Counts: [Iris-setosa, Iris-versicolor, Iris-virginica]" in [t.text for t in root.iter(f"{SVG}text")]


def iris_like():
    from helpers import SAMPLES, load

    return load(SAMPLES / "iris.csv", "class")


def test_regression_leaves_show_the_mean_on_a_colour_scale():
    from dtcli.model.table import NUMERIC

    x = Attribute("x", NUMERIC)
    table = Table(
        Schema((x,), Attribute("y", NUMERIC)), [np.arange(8, dtype=float)], np.array([1.0, 1, 1, 1, 5, 5, 9, 9])
    )
    tree, _ = fit(table, "cart", min_leaf=2)
    shown_picture = picture(tree)
    means = {b.lines[0] for b in shown_picture.boxes if b.kind == LEAF}
    assert means == {"1", "5", "9"}
    boxes = boxes_of(svg(shown_picture))
    colours = {b[6][0]: b[4] for b in boxes if b[6][0] in means}
    rgb = ["#" + "".join(f"{c:02x}" for c in end) for end in (LOW, HIGH)]
    assert colours["1"] == rgb[0] and colours["9"] == rgb[1] and colours["5"] not in rgb


def test_a_10000_level_tree_is_drawn_without_recursion():
    tree = chain(10_000)
    document = svg(picture(tree))
    assert len(boxes_of(document)) == 20_001
    assert dot(picture(tree)).count(" -> ") == 20_000 and mermaid(picture(tree)).count(" -->") == 20_000
    assert len(picture(tree, max_depth=3).boxes) == 7  # a split and a leaf per level, the cut one at depth 3
