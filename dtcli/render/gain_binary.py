"""``dtree gain -a cart`` output: CART's binary candidates as a table, JSON or CSV.

The JSON form is the ``dtree-gain`` document (schema_version 1) with
``"splits": "binary"``, ``candidates`` in place of ``attributes`` and
``chosen_split``; documented in dtree-gain(1).
"""

from __future__ import annotations

import csv
import io

from dtcli.explain.binary import BinaryReport
from dtcli.render.boxtable import BoxTable
from dtcli.render.counts import class_counts
from dtcli.render.gain import gain_document, heading
from dtcli.render.printable import shown

TITLES = {"gain": "information gain", "gini": "Gini gain", "cart": "CART measure"}


def _fixed(value: float) -> str:
    return f"{value:.3f}"


def rich_table(report: BinaryReport) -> BoxTable:
    table = BoxTable()
    for title in ("Attribute", "Split", "Left", "Right", "Gain", "Gini gain", "CART"):
        table.add_column(title, justify="left" if title in ("Attribute", "Split", "Left", "Right") else "right")
    for k, row in enumerate(report.candidates):
        mark = "* " if k == report.chosen else "  "
        missing = f" (? {row.missing:g} missing)" if row.missing > 0 else ""
        table.add_row(
            mark + shown(row.attribute),
            shown(row.label()) + missing,
            class_counts(row.counts[0], report.classes),
            class_counts(row.counts[1], report.classes),
            _fixed(row.gain),
            _fixed(row.gini_gain),
            _fixed(row.cart),
        )
    return table


def footer(report: BinaryReport) -> str:
    title = TITLES[report.criterion]
    lines = []
    if report.chosen is not None:
        lines.append(f"* chosen by {title}: {shown(report.candidates[report.chosen].label())}")
    elif report.elsewhere is not None:
        lines.append(f"chosen by {title}: {shown(report.elsewhere)}, not among the attributes shown (--attribute)")
    else:
        lines.append(f"no binary split improves {title} here: a tree would make this a leaf")
    if report.chosen is not None:
        best = report.candidates[report.chosen]
        score = best.score(report.criterion)
        tied = [
            c for c in report.candidates if c.index != best.index and abs(c.score(report.criterion) - score) < 1e-12
        ]
        if tied:
            lines.append(
                f"note: {', '.join(shown(c.label()) for c in tied)} {'ties' if len(tied) == 1 else 'tie'} with it to "
                "12 decimals; CART takes the attribute first in scikit-learn's random order (seed 0), which below "
                "the root depends on the nodes grown before"
            )
    if report.path_note:
        lines.append(f"note: {shown(report.path_note)}")
    for name, reason in report.skipped:
        lines.append(f"skipped {shown(name)}: {shown(reason)}")
    return "\n".join(lines)


def to_json(report: BinaryReport, where: list[str]) -> str:
    chosen = report.candidates[report.chosen] if report.chosen is not None else None
    candidates = []
    for row in report.candidates:
        entry = {"name": row.attribute, "kind": row.kind, "split": row.label()}
        if row.values is not None:
            entry["values"] = list(row.values)
        else:
            entry["threshold"] = row.threshold
        entry.update(
            counts=[[float(x) for x in side] for side in row.counts],
            missing=row.missing,
            gain=row.gain,
            gini_gain=row.gini_gain,
            cart=row.cart,
        )
        candidates.append(entry)
    label = chosen.label() if chosen else report.elsewhere
    body = {"chosen_split": label, "candidates": candidates}
    if where:
        body["path_note"] = report.path_note
    name = chosen.attribute if chosen else report.elsewhere_attribute
    return gain_document(report, where, name, body, splits="binary")


CSV_COLUMNS = ("attribute", "split", "left", "right", "missing", "gain", "gini_gain", "cart", "chosen")


def to_csv(report: BinaryReport) -> str:
    """One row per candidate; the sides' counts read ``2/1`` (in class order)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for k, row in enumerate(report.candidates):
        sides = ["/".join(f"{x:g}" for x in side) for side in row.counts]
        writer.writerow(
            [row.attribute, row.label(), *sides, f"{row.missing:g}", repr(row.gain), repr(row.gini_gain)]
            + [repr(row.cart), "yes" if k == report.chosen else ""]
        )
    return out.getvalue()


def text(report: BinaryReport, where: list[str]) -> list:
    """The heading, the table and the footer, for the console."""
    return [heading(report, where), rich_table(report), footer(report)]
