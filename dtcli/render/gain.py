"""``dtree gain`` output: a rich table for people, JSON and CSV for scripts.

The JSON form (``"format": "dtree-gain"``, schema_version 1) is documented in
man/dtree-formats.5; numbers are given at full precision, an undefined gain ratio as
``null``.
"""

from __future__ import annotations

import io
import math
from typing import TYPE_CHECKING

from dtcli.model.dates import threshold_text
from dtcli.render.boxtable import BoxTable
from dtcli.render.counts import class_counts
from dtcli.render.printable import shown

if TYPE_CHECKING:
    from dtcli.explain.figures import GainReport

GAIN_FORMAT = "dtree-gain"
GAIN_VERSION = 1
CRITERION_TITLES = {"gain": "information gain", "gain-ratio": "gain ratio", "gini": "Gini gain"}


def _finite(value: float) -> float | None:
    return float(value) if math.isfinite(value) else None


def _fixed(value: float) -> str:
    return f"{value:.3f}" if math.isfinite(value) else "-"


def heading(report: GainReport, where: list[str]) -> str:
    """``PlayTennis: 14 rows [9+, 5-], entropy 0.940, Gini 0.459 (where ...)``."""
    subset = f" where {' and '.join(map(shown, where))}" if where else ""
    return (
        f"{shown(report.target)}{subset}: {report.rows} rows {class_counts(report.counts, report.classes)}, "
        f"entropy {report.entropy:.3f}, Gini {report.gini:.3f}"
    )


def _has_costs(report: GainReport) -> bool:
    return any(row.cost is not None for row in report.attributes)


def rich_table(report: GainReport) -> BoxTable:
    table = BoxTable()
    titles = ["Attribute", "Branches", "Entropy after", "Gain", "Split info", "Gain ratio", "Gini gain"]
    if _has_costs(report):
        titles += ["Cost", "Cost score"]
    for title in titles:
        table.add_column(title, justify="left" if title in ("Attribute", "Branches") else "right")
    for row in report.attributes:
        branches = [f"{shown(v)} {class_counts(c, report.classes)}" for v, c in zip(row.values, row.branch_counts)]
        if row.missing > 0:
            branches.append(f"? {row.missing:g} missing")
        mark = "* " if row.name == report.chosen else "  "
        cells = [
            mark + shown(row.name),
            "\n".join(branches),
            _fixed(row.weighted_entropy),
            _fixed(row.gain),
            _fixed(row.split_info),
            _fixed(row.gain_ratio),
            _fixed(row.gini_gain),
        ]
        if _has_costs(report):
            cells += [f"{row.cost:g}", _fixed(row.cost_score)]
        table.add_row(*cells)
    return table


def cut_tables(report: GainReport) -> list[BoxTable]:
    """One table per numeric attribute listing every candidate cut (``--thresholds-all``)."""
    tables = []
    for row in report.attributes:
        if not row.cuts:
            continue
        table = BoxTable(title=f"{shown(row.name)}: every cut (* where the class changes)")
        for title in ("Cut", "Between", "At or below", "Above", "Gain"):
            table.add_column(title, justify="right" if title in ("Gain",) else "left")
        for cut in row.cuts:
            table.add_row(
                f"{'*' if cut.boundary else ' '} <= {threshold_text(cut.threshold, row.time)}",
                f"{threshold_text(cut.lower, row.time)} | {threshold_text(cut.upper, row.time)}",
                class_counts(cut.counts[0], report.classes),
                class_counts(cut.counts[1], report.classes),
                _fixed(cut.gain),
            )
        tables.append(table)
    return tables


def footer(report: GainReport) -> str:
    title = "cost score" if _has_costs(report) else CRITERION_TITLES[report.criterion]
    if report.algorithm == "c45":  # (J48 knows gain ratio and gain, not Gini nor cost measures)
        as_j48 = report.criterion in ("gain-ratio", "gain") and not _has_costs(report)
        title += " (C4.5, as J48, before pruning)" if as_j48 else " (C4.5, before pruning)"  # (pruning may cut it)
    names = [row.name for row in report.attributes]
    lines = []
    if report.chosen and report.chosen in names:
        lines.append(f"* chosen by {title}: {shown(report.chosen)}")
    elif report.chosen:
        lines.append(f"chosen by {title} among all attributes: {shown(report.chosen)}, not shown here (--attribute)")
    elif report.algorithm == "c45":
        lines.append("no attribute has a split C4.5 makes here: a tree would make this a leaf")
    else:
        lines.append(f"no attribute improves {title} here: a tree would make this a leaf")
    if report.average_gain is not None:
        below = [row.name for row in report.attributes if row.eligible is False]
        rule = f"only attributes with at least the average gain {report.average_gain:.3f} compete (Quinlan's rule)"
        shown_ones = " shown" if report.partial else ""
        lines.append(rule if below else f"{rule}: all{shown_ones} do")
        if below:
            lines.append(
                f"below the average gain{' (of those shown)' if report.partial else ''}: {', '.join(map(shown, below))}"
            )
    corrected = [row for row in report.attributes if row.mdl]
    if corrected:
        lines.append(
            "numeric gains are less the MDL correction log2(cuts)/N (J48): "
            + ", ".join(f"{shown(row.name)} {row.mdl:.3f}" for row in corrected)
        )
    if report.path_note:
        lines.append(f"note: {shown(report.path_note)}")
    if report.ties:
        lines.append(
            f"note: {', '.join(map(shown, report.ties))} {'ties' if len(report.ties) == 1 else 'tie'} with "
            f"{shown(report.chosen)} to 12 decimals; the computed values decide, as in Weka"
        )
    for name, reason in report.skipped:
        lines.append(f"skipped {shown(name)}: {shown(reason)}")
    return "\n".join(lines)


def to_json(report: GainReport, where: list[str]) -> str:
    rows = []
    for row in report.attributes:
        entry = {
            "name": row.name,
            "kind": "nominal" if row.threshold is None else "numeric",
            "branches": [{"value": v, "counts": [float(x) for x in c]} for v, c in zip(row.values, row.branch_counts)],
            "missing": row.missing,
            "weighted_entropy": row.weighted_entropy,
            "gain": row.gain,
            "split_info": row.split_info,
            "gain_ratio": _finite(row.gain_ratio),
            "gini_gain": row.gini_gain,
        }
        if row.threshold is not None:
            entry["threshold"] = row.threshold
        if row.cuts:
            entry["cuts"] = [
                {
                    "threshold": c.threshold,
                    "lower": c.lower,
                    "upper": c.upper,
                    "gain": c.gain,
                    "boundary": c.boundary,
                    "counts": [[float(x) for x in side] for side in c.counts],
                }
                for c in row.cuts
            ]
        if row.cost is not None:
            entry["cost"], entry["cost_score"] = row.cost, row.cost_score
        if row.mdl is not None:
            entry["mdl"] = row.mdl
        if row.eligible is not None:
            entry["eligible"] = row.eligible
        rows.append(entry)
    body = {"ties": report.ties}
    if where:
        body["path_note"] = report.path_note
    if report.average_gain is not None:
        body["average_gain"] = report.average_gain
    body["attributes"] = rows
    return gain_document(report, where, report.chosen, body, algorithm="c45" if report.algorithm == "c45" else None)


def gain_text(report: GainReport, where: list[str], fmt: str) -> str:
    """A multiway report as text: JSON, CSV, or the table as it reads on a pipe (for ``-o FILE``)."""
    from dtcli.render.console import rendered

    if fmt == "json":
        return to_json(report, where)
    if fmt == "csv":
        return to_csv(report)
    parts = [heading(report, where), rich_table(report), footer(report)]
    for cuts in cut_tables(report):
        parts += ["", cuts]
    return rendered(*parts)


def write_gain(report: GainReport, where: list[str], fmt: str) -> None:
    """A multiway report on standard output: the table (``fmt`` "table"), JSON or CSV."""
    from dtcli.render.console import console

    if fmt in ("json", "csv"):
        console.data(gain_text(report, where, fmt))
    else:
        console.print(heading(report, where))
        console.print(rich_table(report))
        console.print(footer(report))
        for cuts in cut_tables(report):
            console.print()
            console.print(cuts)


def gain_document(
    report, where: list[str], chosen, body: dict, splits: str | None = None, algorithm: str | None = None
) -> str:
    """The ``dtree-gain`` JSON document: the node's figures, ``body`` (the scored splits), the skipped."""
    doc = {"format": GAIN_FORMAT, "schema_version": GAIN_VERSION}
    if splits:
        doc["splits"] = splits
    if algorithm:
        doc["algorithm"] = algorithm
    doc.update(
        target=report.target,
        classes=list(report.classes),
        class_counts=[float(x) for x in report.counts],
        rows=report.rows,
        where=where,
        entropy=report.entropy,
        gini=report.gini,
        criterion=report.criterion,
        chosen=chosen,
    )
    doc.update(body)
    doc["skipped"] = [{"name": n, "reason": r} for n, r in report.skipped]
    import json  # here, as csv: the table that people read needs neither

    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = (
    "attribute",
    "branches",
    "missing",
    "weighted_entropy",
    "gain",
    "split_info",
    "gain_ratio",
    "gini_gain",
    "chosen",
    "threshold",
    "cost",
    "cost_score",
)
ELIGIBLE_COLUMN = "eligible"  # with gain ratio: yes when the gain reaches the average gain (Quinlan's rule)


def to_csv(report: GainReport) -> str:
    """One row per attribute; ``branches`` reads ``Sunny:3/2|Overcast:0/4`` (counts in class order)."""
    import csv

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    ratio_rule = report.average_gain is not None
    writer.writerow(CSV_COLUMNS + ((ELIGIBLE_COLUMN,) if ratio_rule else ()))
    for row in report.attributes:
        branches = "|".join(f"{v}:" + "/".join(f"{x:g}" for x in c) for v, c in zip(row.values, row.branch_counts))
        ratio = repr(row.gain_ratio) if math.isfinite(row.gain_ratio) else ""
        writer.writerow(
            [
                row.name,
                branches,
                f"{row.missing:g}",
                repr(row.weighted_entropy),
                repr(row.gain),
                repr(row.split_info),
                ratio,
                repr(row.gini_gain),
                "yes" if row.name == report.chosen else "",
                "" if row.threshold is None else repr(row.threshold),
                "" if row.cost is None else repr(row.cost),
                "" if row.cost_score is None else repr(row.cost_score),
            ]
            + (["yes" if row.eligible else ""] if ratio_rule else [])
        )
    return out.getvalue()


def _threshold_of(test) -> float | None:
    """A numeric test's threshold at full precision (the split's text rounds it); None for a subset."""
    threshold = getattr(test, "threshold", None)
    return None if threshold is None else float(threshold)


def regression_output(stats, found, table, where: list[str], fmt: str, chosen: str | None = None) -> str:
    """The regression form of ``dtree gain``: each attribute's best split and MSE decrease; ``chosen``
    names the attribute the tree splits on (None: a leaf)."""
    weight, mean, mse = stats
    mark = [name == chosen for name, _, _ in found]
    if fmt == "json":
        doc = {
            "format": GAIN_FORMAT,
            "schema_version": GAIN_VERSION,
            "task": "regression",
            "target": table.schema.target.name,
            "rows": int(table.labelled().sum()),
            "where": where,
            "weight": weight,
            "mean": mean,
            "mse": mse,
            "chosen": chosen,
            "attributes": [
                {"name": n, "split": t.branch_labels()[0], "mse_decrease": d, "threshold": _threshold_of(t)}
                for n, t, d in found
            ],
        }
        import json

        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        import csv

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("attribute", "split", "mse_decrease", "chosen", "threshold"))
        for k, (name, test, decrease) in enumerate(found):
            threshold = _threshold_of(test)
            row = (name, test.branch_labels()[0], repr(decrease), "yes" if mark[k] else "")
            writer.writerow((*row, "" if threshold is None else repr(threshold)))
        return out.getvalue()
    subset = f" where {' and '.join(map(shown, where))}" if where else ""
    lines = [f"{shown(table.schema.target.name)}{subset}: {weight:g} rows, mean {mean:.6g}, MSE {mse:.6g}"]
    width = max([len(shown(n)) for n, _, _ in found] + [9])
    lines.append(f"  {'Attribute':<{width}}  {'Best split':<30} {'MSE decrease':>12}")
    for k, (name, test, decrease) in enumerate(found):
        split = test.branch_labels(shown)[0]
        lines.append(f"{'*' if mark[k] else ' '} {shown(name):<{width}}  {split:<30} {decrease:12.6g}")
    if chosen:
        lines.append(f"* chosen by MSE decrease: {shown(chosen)}")
    else:
        lines.append("no split decreases the MSE here: a tree would make this a leaf")
    return "\n".join(lines) + "\n"
