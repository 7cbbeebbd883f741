"""The derivation written out: Mitchell's lines in plain text, Markdown's structure, LaTeX that compiles."""

from __future__ import annotations

import math
import re
import shutil
import subprocess

import pytest

from dtcli.explain.binary import binary_report
from dtcli.explain.report import gain_report
from dtcli.explain.terms import Const, Frac, Log2, Power, Product, Ratio, Sum, Value
from dtcli.explain.worked import explain_gain
from dtcli.explain.worked_binary import explain_binary
from dtcli.model.where import parse_condition, select
from dtcli.render.explain import markdown_document, text_document
from dtcli.render.explain_latex import latex_document
from dtcli.render.formula import latex, latex_escape, text
from helpers import SAMPLES, load


def H(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def derivation(table, where=()):
    conditions = [parse_condition(w) for w in where]
    rows = select(table, conditions)
    report = gain_report(table, "gain", rows, exclude=tuple(c.name for c in conditions), all_cuts=True)
    return explain_gain(table, rows, report, 3, tuple(where), tuple(c.value for c in conditions), (1, 0))


def test_playtennis_root_lines_as_mitchell_writes_them(weather):
    out = text_document(derivation(weather)).splitlines()
    lines = [line.strip() for line in out]
    assert f"Entropy(S) = -(9/14) log2(9/14) - (5/14) log2(5/14) = {H(9, 5):.3f}" in lines
    assert "S_Weak = [6+, 2-]" in lines
    assert f"Entropy(S_Weak) = -(6/8) log2(6/8) - (2/8) log2(2/8) = {H(6, 2):.3f}" in lines
    gain = H(9, 5) - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3)
    assert f"Gain(S, Wind) = 0.940 - (8/14)(0.811) - (6/14)(1.000) = {gain:.3f}" in lines
    assert "Gini(S) = 1 - (9/14)^2 - (5/14)^2 = 0.459" in lines
    outlook = lines.index("Gain(S, Outlook) = 0.940 - (5/14)(0.971) - (4/14)(0.000) - (5/14)(0.971) = 0.247")
    assert "give 0.246" in lines[outlook + 1] and "exact value is 0.247" in lines[outlook + 1]
    assert lines[-1] == "Chosen: Outlook, the highest information gain (0.247)."


def test_sunny_node_lines(weather):
    lines = [line.strip() for line in text_document(derivation(weather, ["Outlook=Sunny"])).splitlines()]
    assert "Gain(S_Sunny, Humidity) = 0.971 - (3/5)(0.000) - (2/5)(0.000) = 0.971" in lines
    wind = H(2, 3) - 3 / 5 * H(1, 2) - 2 / 5 * H(1, 1)
    assert f"Gain(S_Sunny, Wind) = 0.971 - (3/5)(0.918) - (2/5)(1.000) = {wind:.3f}" in lines
    assert "S_Sunny,High = [0+, 3-]" in lines


def test_temperature_cuts_marked_at_54_and_85():
    text_out = text_document(derivation(load(SAMPLES / "temperature.csv")))
    assert "40 No, 48 No, 60 Yes, 72 Yes, 80 Yes, 90 No" in text_out
    marked = re.findall(r"Gain\(S, Temperature <= (\d+)\) = .*\(boundary\)", text_out)
    assert marked == ["54", "85"]


def test_terms_in_both_notations():
    entropy = Sum(((-1, Product((Frac(9, 14), Log2(Frac(9, 14))))),))
    assert text(entropy, 3) == "-(9/14) log2(9/14)"
    assert latex(entropy, 3) == r"-\frac{9}{14} \log_2 \frac{9}{14}"
    assert text(Power(Frac(5, 14), Const(2)), 3) == "(5/14)^2"
    assert text(Ratio(Value(0.2467), Value(1.5774)), 3) == "0.247 / 1.577"
    assert latex(Ratio(Value(0.2467), Value(1.5774)), 3) == r"\frac{0.247}{1.577}"
    assert text(Frac(1.5, 3.5), 3) == "0.429"  # fractional weights print as decimals


def test_latex_escapes_names():
    assert latex_escape("a_b&c%d#e$f{g}h~i^j\\k") == (
        r"a\_b\&c\%d\#e\$f\{g\}h\textasciitilde{}i\textasciicircum{}j\textbackslash{}k"
    )


def test_markdown_structure(weather):
    md = markdown_document(derivation(weather))
    assert md.startswith("## PlayTennis: the worked computation\n")
    assert "\n### Outlook\n" in md and "\n### Wind\n" in md
    assert "- `Gain(S, Wind) = 0.940 - (8/14)(0.811) - (6/14)(1.000) = 0.048`" in md
    assert "  - `Entropy(S_Weak) = -(6/8) log2(6/8) - (2/8) log2(2/8) = 0.811`" in md
    assert md.rstrip().endswith("**Chosen: Outlook, the highest information gain (0.247).**")


def odd_table(tmp_path):
    path = tmp_path / "odd.csv"
    path.write_text("N_a&m%e,V#1,C~x\n1,a$b,y\n2,a$b,n\n?,c{d},y\n4,?,n\n5,c^d\\,y\n")
    return load(path)


def latex_fragments(weather, tmp_path):
    risk = binary_report(load(SAMPLES / "risk.csv", "Risk", ignore=("Point",)), "cart")
    odd = odd_table(tmp_path)
    return [
        latex_document(derivation(weather)),
        latex_document(derivation(weather, ["Outlook=Sunny"])),
        latex_document(derivation(odd)),
        latex_document(explain_binary(risk)),
        latex_document(explain_binary(binary_report(odd, "gini"))),
    ]


def test_latex_structure(weather, tmp_path):
    for fragment in latex_fragments(weather, tmp_path):
        assert fragment.count(r"\begin{align*}") == fragment.count(r"\end{align*}") > 0
        assert r"\documentclass" not in fragment
        assert fragment.count("{") - fragment.count(r"\{") == fragment.count("}") - fragment.count(r"\}")
    root = latex_fragments(weather, tmp_path)[0]
    assert (
        r"\mathrm{Entropy}(S) &= -\frac{9}{14} \log_2 \frac{9}{14} - \frac{5}{14} \log_2 \frac{5}{14} = 0.940" in root
    )
    odd = latex_fragments(weather, tmp_path)[2]
    assert r"\text{N\_a\&m\%e}" in odd and r"\text{V\#1}" in odd


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed (texlive-latex-base)")
def test_latex_compiles(weather, tmp_path):
    for k, fragment in enumerate(latex_fragments(weather, tmp_path)):
        (tmp_path / f"part{k}.tex").write_text(fragment)
        (tmp_path / f"doc{k}.tex").write_text(
            "\\documentclass{article}\n\\usepackage{amsmath}\n\\begin{document}\n"
            f"\\input{{part{k}}}\n\\end{{document}}\n"
        )
        done = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", f"doc{k}.tex"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stdout[-2000:]
        assert (tmp_path / f"doc{k}.pdf").exists()
