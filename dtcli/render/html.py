"""HTML for notebooks: tables and short paragraphs, every name and value escaped, numbers to 4 significant digits.

Jupyter shows a ``GainTable``, a ``Report``, a ``Difference`` and an ``Explanation`` of the Python API
with these (their ``_repr_html_``). Text that came from a table (column names, values, labels, file
names) may hold ``<``, ``&`` or quotes: it is escaped, attributes included, so that it shows as written
and never becomes markup.
"""

from __future__ import annotations

import html
import math


def cell(value) -> str:
    """One value as escaped HTML text: a float to 4 significant digits, None as nothing."""
    if isinstance(value, float):
        return f"{value:.4g}" if math.isfinite(value) else html.escape(str(value))
    return html.escape("" if value is None else str(value))


def paragraph(text: str) -> str:
    """Escaped lines in one ``<p>`` (a line break between lines)."""
    return "<p>" + "<br>".join(html.escape(line) for line in text.splitlines()) + "</p>"


def html_table(header: list, rows: list, caption: str | None = None) -> str:
    """An HTML table (cells escaped; numbers to 4 significant digits), with a caption when given."""
    head = "".join(f"<th>{cell(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    top = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{top}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def spread_text(spread: dict) -> str:
    """``mean 0.7167 (sd 0.3014)`` of a ``fold_accuracy``, ``tree_size`` or ``leaves`` entry."""
    sd = spread.get("sd")
    return f"mean {spread['mean']:.4g}" + (f" (sd {sd:.4g})" if sd is not None else "")


def evaluation_html(document: dict) -> str:
    """A dtree-evaluation document: what was judged, the summary, the classes, the confusion matrix."""
    about = document.get("about", {})
    facts = [[k, v] for k, v in about.items() if not isinstance(v, dict)]
    facts += [[k, spread_text(v)] for k, v in about.items() if isinstance(v, dict) and "mean" in v]
    parts = [html_table(["about", "value"], facts, "Evaluation") if facts else ""]
    summary = document["summary"]
    parts.append(html_table(["figure", "value"], [[k, v] for k, v in summary.items()], "Summary"))
    classes = document.get("classes")
    if classes:
        header = list(classes[0])
        rows = [list(c.values()) for c in classes]
        for key, name in (("weighted_average", "weighted average"), ("macro_average", "macro average")):
            if document.get(key):
                rows.append([document[key].get(h, name if h == "label" else None) for h in header])
        parts.append(html_table(header, rows, "By class"))
        matrix = document["confusion_matrix"]
        header = ["actual \\ predicted", *matrix["predicted"]]
        rows = [[a, *row] for a, row in zip(matrix["actual"], matrix["counts"])]
        parts.append(html_table(header, rows, "Confusion matrix"))
    return "\n".join(p for p in parts if p)
