"""Rules as LaTeX and Markdown: Mitchell's PlayTennis rules, hostile names quoted, pdflatex when installed."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest
from trees import fit

from dtcli.induction.rules import extract
from dtcli.model.rules import Condition, Rule, RuleSet
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema
from dtcli.render.latex import condition, latex, tex
from dtcli.render.printable import shown
from dtcli.render.rules import markdown, markdown_text

HOSTILE = "a_b & 50% $x$ #1 {y} ~z^ \\end{document} <i>|</i> -- caf\u00e9 tab\there"


def hostile_rules() -> RuleSet:
    """Two rules over attributes and classes whose names hold every special character of LaTeX and Markdown."""
    a = Attribute(HOSTILE, NOMINAL, (HOSTILE, "plain", "*bold* `code` [link](x)"))
    x = Attribute("x_1", NUMERIC)
    schema = Schema((a, x), Attribute("cl\\ass", NOMINAL, (HOSTILE, "no")))
    rules = [
        Rule(
            (Condition(HOSTILE, values=(HOSTILE, "plain")), Condition("x_1", low=-1.5, high=2.0)), 0, np.array([3.0, 1])
        ),
        Rule(
            (Condition(HOSTILE, values=("*bold* `code` [link](x)",)), Condition("x_1", low=2.0)), 1, np.array([0.0, 2])
        ),
    ]
    return RuleSet(schema, rules, 1, np.array([3.0, 3]))


def test_latex_of_mitchells_rules(weather):
    tree, _ = fit(weather, "id3")
    lines = latex(extract(tree)).splitlines()
    assert lines[1:5] == [
        "\\begin{enumerate}",
        "\\item[R1.] \\textbf{IF} Outlook $=$ Sunny \\textbf{AND} Humidity $=$ High",
        "  \\textbf{THEN} PlayTennis $=$ No\\\\",
        "  \\emph{3 cases, accuracy 1.000, [0+, 3$-$]}",
    ]
    assert lines[-2:] == ["\\item[R6.] \\textbf{ELSE} PlayTennis $=$ Yes (default)", "\\end{enumerate}"]


def test_conditions_put_comparisons_in_math_mode():
    assert condition(Condition("Age", low=22.5, high=45.0)) == "$22.5 <$ Age $\\leq 45$"
    assert condition(Condition("Age", high=22.5)) == "Age $\\leq 22.5$"
    assert condition(Condition("Age", low=22.5)) == "Age $> 22.5$"
    assert condition(Condition("Car", values=("Vintage", "SUV"))) == "Car $\\in$ \\{Vintage, SUV\\}"


def test_latex_escapes_every_special_character():
    assert (
        tex("a_b & 50% $x$ #1 {y} ~z^") == "a\\_b \\& 50\\% \\$x\\$ \\#1 \\{y\\} \\textasciitilde{}z\\textasciicircum{}"
    )
    assert tex("\\end{document} <i>|</i> -- caf\u00e9") == (
        "\\textbackslash{}end\\{document\\} \\ensuremath{<}i\\ensuremath{>}\\ensuremath{|}\\ensuremath{<}/i"
        "\\ensuremath{>} -{}- caf\u00e9"
    )
    assert tex("tab\there") == "tab\\textbackslash{}there"  # shown as tab\there, then the backslash quoted
    text = latex(hostile_rules())
    assert "\\end{document}" not in text.replace("\\textbackslash{}end\\{document\\}", "")
    unescaped = re.sub(r"\\[{}]", "", text)
    assert unescaped.count("{") == unescaped.count("}")  # every group closed
    assert text.count("$") % 2 == 0


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex (texlive) is not installed")
def test_pdflatex_compiles_the_fragment(tmp_path, weather):
    tree, _ = fit(weather, "id3")
    body = latex(extract(tree)) + latex(hostile_rules())
    (tmp_path / "rules.tex").write_text("\\documentclass{article}\n\\begin{document}\n" + body + "\\end{document}\n")
    out = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "rules.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout[-2000:]
    assert (tmp_path / "rules.pdf").stat().st_size > 0


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row, split at the pipes that are not backslash-escaped."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", row)[1:-1]]


def test_markdown_cells_hold_hostile_values_as_text():
    rows = markdown(hostile_rules()).splitlines()
    assert all(len(cells(row)) == 6 for row in rows)
    assert cells(rows[3])[1] == f"{markdown_text(HOSTILE)} = \\*bold\\* \\`code\\` \\[link\\](x) AND x\\_1 > 2"
    assert markdown_text("a|b") == "a\\|b" and markdown_text("two\nlines") == "two\\\\nlines"
    unescaped = re.sub(r"\\(.)", lambda m: m.group(1), cells(rows[2])[2])
    assert unescaped == shown(HOSTILE)  # the class as printed for people: the tab (and so backslashes) escaped
