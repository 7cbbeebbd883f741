"""``dtree gain --explain``: a derivation written as plain text or Markdown (LaTeX: ``render/explain_latex.py``).

The derivation is data (``explain/worked.py``); this module only
writes it. Plain text indents by depth and writes each equation on one line,
``Gain(S, Wind) = 0.940 - (8/14)(0.811) - (6/14)(1.000) = 0.048``; Markdown
gives headings, nested lists and each equation in a code span.
"""

from __future__ import annotations

from dtcli.explain.terms import Equation
from dtcli.explain.worked import Counts, Derivation, Sorted
from dtcli.model.dates import threshold_text
from dtcli.render.counts import class_counts, number
from dtcli.render.formula import fixed, text
from dtcli.render.printable import shown


def intro(derivation: Derivation) -> str:
    return (
        f"Every figure is computed exactly and rounded to {derivation.digits} decimals at the end only; "
        "figures inside a formula are shown rounded."
    )


def note(equation: Equation, digits: int) -> str:
    """The note on a figure a text that rounds as it goes would print differently (Mitchell's 0.246)."""
    return (
        f"note: the figures as shown, rounded to {digits} decimals, give {fixed(equation.plugged, digits)} "
        f"(what a text that rounds as it goes prints, as Mitchell does); the exact value is "
        f"{fixed(equation.value, digits)}"
    )


def equation_text(equation: Equation, digits: int) -> str:
    parts = [text(equation.lhs, digits)] + [text(form, digits) for form in equation.forms]
    line = " = ".join(parts + [fixed(equation.value, digits)])
    return line + (f"  ({equation.remark})" if equation.remark else "")


def counts_text(item: Counts, derivation: Derivation) -> str:
    return f"{text(item.name, derivation.digits)} = {class_counts(item.counts, derivation.classes)}"


def sorted_text(item: Sorted, derivation: Derivation) -> str:
    """``40 No, 48 No, 60 Yes``; a value with rows of several classes gets its counts, ``72 [1+, 1-]``."""
    pieces = []
    for value, counts in zip(item.values, item.counts):
        present = [c for c in range(len(counts)) if counts[c] > 0]
        if len(present) == 1:
            c = present[0]
            times = f" x{number(counts[c])}" if counts[c] != 1 else ""
            pieces.append(f"{threshold_text(value, item.time)} {shown(derivation.classes[c])}{times}")
        else:
            pieces.append(f"{threshold_text(value, item.time)} {class_counts(counts, derivation.classes)}")
    return ", ".join(pieces)


def plain_lines(item, derivation: Derivation) -> list[str]:
    """The plain-text lines of one item (an equation may bring a note)."""
    if isinstance(item, Equation):
        lines = [equation_text(item, derivation.digits)]
        if item.plugged is not None:
            lines.append("  " + note(item, derivation.digits))
        return lines
    if isinstance(item, Counts):
        return [counts_text(item, derivation)]
    if isinstance(item, Sorted):
        return [sorted_text(item, derivation)]
    return [shown(item)]


def text_document(derivation: Derivation) -> str:
    out = [f"{shown(derivation.title)}: the worked computation", intro(derivation)]
    for section in derivation.sections:
        out += ["", shown(section.heading)]
        for depth, item in section.lines:
            out += ["  " * (depth + 1) + line for line in plain_lines(item, derivation)]
    out += ["", shown(derivation.choice)]
    return "\n".join(out) + "\n"


MARKDOWN_SPECIALS = set("\\`*_[]<>|#~")


def markdown_escape(value: str) -> str:
    return "".join("\\" + c if c in MARKDOWN_SPECIALS else c for c in shown(value))


def code(value: str) -> str:
    """``value`` as a Markdown code span (fenced with two backticks when it holds one)."""
    return f"`` {value} ``" if "`" in value else f"`{value}`"


def markdown_document(derivation: Derivation) -> str:
    out = [f"## {markdown_escape(derivation.title)}: the worked computation", "", markdown_escape(intro(derivation))]
    for section in derivation.sections:
        out += ["", f"### {markdown_escape(section.heading)}", ""]
        for depth, item in section.lines:
            indent = "  " * depth
            if isinstance(item, str):
                out.append(f"{indent}- {markdown_escape(item)}")
                continue
            lines = plain_lines(item, derivation)
            out.append(f"{indent}- {code(lines[0])}")
            out += [f"{indent}  - *{markdown_escape(line.strip())}*" for line in lines[1:]]
    out += ["", f"**{markdown_escape(derivation.choice)}**"]
    return "\n".join(out) + "\n"
