"""``dtree gain`` without numpy: a small plain CSV file read and scored in plain Python.

Grading scripts call ``dtree gain`` thousands of times on small tables, and
numpy's import alone takes about as long as a Java VM's whole run of Weka's
Id3. So a run whose file and options allow it takes the plain path: the
file read by ``plain/read.py``, the report computed by
``plain/report.py``, written by the same renderer. The
output is byte for byte the full path's (tests/cli/test_gain_plain.py
compares both on generated tables). Everything else goes the full way:
another format, a large or unusual file, binary splits, --costs, --explain,
--attribute, --nominal, regression, any file or option the full path reports
an error for, a CPU where numpy's logarithm is not the C library's
(``same_logarithm``), and ``DTREE_PLAIN=0`` in the environment.
"""

from __future__ import annotations

import os
import sys

PLAIN_CRITERIA = ("gain", "gain-ratio", "gini")


def plain_gain(
    source,
    parsed,
    criterion: str,
    thresholds: str,
    all_cuts: bool,
    quiet: bool,
    numeric_class: bool = False,
):
    """``dtree gain``'s report on the plain path if ``source`` and the options allow it; None if not (the
    caller runs the full path then)."""
    if source.format_in not in (None, "csv") or source.nominal or criterion not in PLAIN_CRITERIA:
        return None
    if os.environ.get("DTREE_PLAIN", "1") == "0" or not same_logarithm():
        return None
    from dtcli.io.names import split_names
    from dtcli.plain.read import read_plain
    from dtcli.plain.report import PlainThresholds, plain_gain_report, select_rows

    names = lambda header: split_names(source.ignore, header)  # noqa: E731
    table = read_plain(source.data, source.target, names, source.limits, numeric_class)
    if table is None or all(code < 0 for code in table.y):
        return None  # (no row with a class value: the full path refuses it as train does)
    rows = select_rows(table, parsed)
    if not rows:
        return None  # (an unknown name or value, or no row: the full path says which)
    fixed = tuple(c.name for c in parsed if c.op == "=")
    place = PlainThresholds(table, thresholds).place
    report = plain_gain_report(table, criterion, rows, exclude=fixed, place=place, all_cuts=all_cuts)
    if parsed:
        from dtcli.explain.tree_path import off_path

        def choice_at(taken):
            fixed_above = tuple(c.name for c in taken if c.op == "=")
            return report_choice(plain_gain_report(table, criterion, select_rows(table, taken), fixed_above, place))

        report.path_note = off_path(parsed, choice_at)
    if not quiet:
        _warn_identifiers(table)
        unlabelled = sum(1 for code in table.y if code < 0)
        if unlabelled:  # (as the full path and train say it)
            from dtcli.render.console import warn

            warn(f"{table.source}: {unlabelled} row(s) without a class value were left out")
    return report


def report_choice(report):
    """The split a multiway ``report`` chooses, as ``tree_path.off_path`` reads it (None: a leaf)."""
    if report.chosen is None:
        return None
    row = next(r for r in report.attributes if r.name == report.chosen)
    return row.name, "nominal" if row.threshold is None else "numeric", row.threshold, None


def _warn_identifiers(table) -> None:
    """``pipeline.load.warn_identifiers`` for a PlainTable: every value of a column appears in it."""
    from dtcli.model.identifiers import identifier_message, identifies, may_identify
    from dtcli.render.console import warn
    from dtcli.render.printable import shown

    for column in table.attributes:
        if not column.is_nominal:
            continue
        known = sum(1 for code in column.cells if code >= 0)
        if may_identify(len(column.values), known) and identifies(len(column.values), known):
            warn(identifier_message(table.source, column.name, len(column.values), known, shown, column.values))
    from dtcli.model.identifiers import numbers_rows, row_number_message

    for column in table.attributes:
        known = [v for v in column.cells if v == v] if not column.is_nominal else []
        if len(known) > 1 and numbers_rows(len(known), len(known), min(known), max(known), True):
            whole = all(v % 1 == 0 for v in known)
            if numbers_rows(len(known), len(set(known)), min(known), max(known), whole):
                warn(row_number_message(table.source, column.name, min(known), max(known), shown))
    from dtcli.model.value_text import lookalike_classes, lookalike_message

    groups = lookalike_classes(table.classes)
    if groups:
        warn(lookalike_message(table.source, table.target, groups, shown))


def same_logarithm() -> bool:
    """Whether numpy's float64 logarithm is the C library's on this machine, as ``math.log`` is.

    numpy computes it with its own vector code on x86-64 CPUs with AVX-512 (SVML or its own
    kernel), which may differ in the last bit; elsewhere it calls the C library. So: an x86-64
    Linux machine whose CPU lacks ``avx512f``, or an ARM machine (Linux or macOS). Anything else
    takes the full path.
    """
    machine = os.uname().machine.lower() if hasattr(os, "uname") else ""
    if machine in ("aarch64", "arm64"):
        return sys.platform in ("linux", "darwin")
    if machine != "x86_64" or sys.platform != "linux":
        return False
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return "avx512f" not in line.split()
    except OSError:
        pass
    return False
