"""``dtree gain --explain --explain-format latex``: the derivation as a LaTeX fragment (amsmath's ``align*``).

The fragment needs only ``\\usepackage{amsmath}``: each section is a
``\\paragraph``, its equations one ``align*`` (aligned at the first ``=``,
a branch's lines indented with ``\\quad``), sentences and notes plain
paragraphs between them, every name escaped for LaTeX.
"""

from __future__ import annotations

from dtcli.explain.terms import Equation
from dtcli.explain.worked import Counts, Derivation, Sorted
from dtcli.render.counts import class_counts
from dtcli.render.explain import intro, note, sorted_text
from dtcli.render.formula import fixed, latex, latex_escape


def _row(item, derivation: Derivation, depth: int) -> str:
    indent = r"\quad " * depth
    digits = derivation.digits
    if isinstance(item, Equation):
        right = [latex(form, digits) for form in item.forms] + [fixed(item.value, digits)]
        remark = rf" \quad \text{{({latex_escape(item.remark)})}}" if item.remark else ""
        return f"{indent}{latex(item.lhs, digits)} &= {' = '.join(right)}{remark}"
    shown = latex_escape(class_counts(item.counts, derivation.classes))
    return rf"{indent}{latex(item.name, digits)} &= \text{{{shown}}}"


def latex_document(derivation: Derivation) -> str:
    out = [
        f"% dtree gain --explain: {latex_escape(derivation.title)} (needs \\usepackage{{amsmath}})",
        rf"\subsection*{{{latex_escape(derivation.title)}: the worked computation}}",
        latex_escape(intro(derivation)),
    ]
    for section in derivation.sections:
        out += ["", rf"\paragraph{{{latex_escape(section.heading)}}}"]
        rows: list[str] = []
        for depth, item in section.lines:
            if isinstance(item, (Equation, Counts)):
                rows.append(_row(item, derivation, depth))
                if isinstance(item, Equation) and item.plugged is not None:
                    _flush(out, rows)
                    out.append(r"\emph{" + latex_escape(note(item, derivation.digits)) + "}")
                continue
            _flush(out, rows)
            line = sorted_text(item, derivation) if isinstance(item, Sorted) else item
            out += ["", latex_escape(line), ""]
        _flush(out, rows)
    out += ["", r"\textbf{" + latex_escape(derivation.choice) + "}"]
    return "\n".join(out) + "\n"


def _flush(out: list[str], rows: list[str]) -> None:
    """Close the pending equations as one ``align*`` block."""
    if not rows:
        return
    out.append(r"\begin{align*}")
    out.append(" \\\\\n".join(rows))
    out.append(r"\end{align*}")
    rows.clear()
