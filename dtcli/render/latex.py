"""A rule set as a LaTeX fragment: an ``enumerate`` of IF ... THEN ... rules, for notes and answer sheets.

The fragment needs no package (``\\input`` it, or paste it, into any
document)::

    \\begin{enumerate}
    \\item[R1.] \\textbf{IF} Outlook $=$ Sunny \\textbf{AND} Humidity $=$ High
      \\textbf{THEN} PlayTennis $=$ No\\\\
      \\emph{3 cases, accuracy 1.000, [0+, 3$-$]}

Comparisons and thresholds are in math mode (``$0.6 <$ petalwidth
``$\\leq 1.7$``, ``Car $\\in$ \\{Sports, SUV\\}``). Names and values are text:
control characters written visibly first (``printable.shown``), then LaTeX's
special characters escaped (``\\&``, ``\\_``, ``\\textbackslash{}``, ...), so
no name or value can run a command. pdflatex handles Latin letters with
accents; for other scripts compile with xelatex or lualatex.
"""

from __future__ import annotations

import math
import re

from dtcli.model.dates import threshold_text
from dtcli.model.rules import Condition, RuleSet
from dtcli.render.counts import class_counts, number, signs
from dtcli.render.printable import shown

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
    "|": r"\ensuremath{|}",
}
_SPECIALS = re.compile("[" + re.escape("".join(_SPECIAL)) + "]")


def tex(value: str) -> str:
    """``value`` as LaTeX text: control characters shown escaped, LaTeX's special characters quoted."""
    text = _SPECIALS.sub(lambda m: _SPECIAL[m.group()], shown(value))
    return re.sub("-(?=-)", "-{}", text)  # "--" stays two hyphens, not a dash


def condition(c: Condition) -> str:
    """One precondition: ``Outlook $=$ Sunny``, ``Car $\\in$ \\{a, b\\}``, ``$0.6 <$ A $\\leq 1.7$``
    (in parentheses with ``or missing`` when a missing value satisfies it too)."""
    test = _test(c)
    return f"({test} or missing)" if c.missing else test


def _test(c: Condition) -> str:
    name = tex(c.attribute)
    if c.is_nominal:
        if len(c.values) == 1:
            return f"{name} $=$ {tex(c.values[0])}"
        return f"{name} $\\in$ \\{{{', '.join(tex(v) for v in c.values)}\\}}"
    low = f"${threshold_text(c.low, c.time)} <$ " if c.low is not None else ""
    high = f" $\\leq {threshold_text(c.high, c.time)}$" if c.high is not None else ""
    if c.low is not None and c.high is None:
        return f"{name} $> {threshold_text(c.low, c.time)}$"
    return f"{low}{name}{high}"


def _counts(counts, classes) -> str:
    pair = signs(classes)
    if pair is None:
        return tex(class_counts(counts, classes))
    return f"[{number(counts[pair[0]])}+, {number(counts[pair[1]])}$-$]"


def latex(ruleset: RuleSet) -> str:
    """The fragment (see the module docstring), ending with a newline."""
    target, classes = tex(ruleset.schema.target.name), ruleset.classes
    lines = [
        f"% {len(ruleset.rules) + 1} rules for {target} from dtree (a LaTeX fragment; it needs no package)",
        "\\begin{enumerate}",
    ]
    for k, rule in enumerate(ruleset.rules, start=1):
        tests = " \\textbf{AND} ".join(condition(c) for c in rule.conditions) or "TRUE"
        accuracy = "" if math.isnan(rule.accuracy) else f", accuracy {rule.accuracy:.3f}"
        estimate = "" if rule.estimate is None else f", estimate {rule.estimate:.3f}"
        cases = f"{rule.cases:g} case" + ("" if rule.cases == 1 else "s")
        lines.append(f"\\item[R{k}.] \\textbf{{IF}} {tests}")
        lines.append(f"  \\textbf{{THEN}} {target} $=$ {ruleset.outcome(rule, tex)}\\\\")
        counts = "" if ruleset.schema.is_regression else f", {_counts(rule.counts, classes)}"
        lines.append(f"  \\emph{{{cases}{accuracy}{estimate}{counts}}}")
    default = f"\\textbf{{ELSE}} {target} $=$ {ruleset.outcome(None, tex)} (default)"
    lines += [f"\\item[R{len(ruleset.rules) + 1}.] {default}", "\\end{enumerate}"]
    return "\n".join(lines) + "\n"
