"""``dtree gain -a c45`` and ``-a cart``: the report of the algorithm's split search, its choice the tree's."""

from __future__ import annotations


def tree_report(
    table, rows, algorithm, binary, criterion, thresholds, min_leaf, fixed, place, hidden, parsed=(), every=False
):
    """The C4.5 report or CART's binary candidates over ``rows``, the split chosen being the one the
    tree grower makes there with these options (``grow.grower.node_choice``); ``hidden`` attributes
    (left out by --attribute) are scored and may be chosen, but are not shown. CART's candidates:
    each attribute's best (the tree's attribute: the tree's own split), or ``every`` one."""
    import numpy as np

    from dtcli.induction.algorithms import grow_params
    from dtcli.induction.grow.grower import node_choice

    labelled = table.labelled()
    rows = rows[labelled[rows]]
    if binary:
        from dtcli.explain.binary import binary_report, star_choice

        params = grow_params("cart", criterion="entropy" if criterion == "gain" else criterion, min_leaf=min_leaf)
        available = [i for i, a in enumerate(table.attributes) if a.name not in fixed]
        choice = node_choice(table, rows, params, available)
        near = None
        if choice is not None:
            near = table.schema.index(choice.test.attribute.name), getattr(choice.test, "threshold", None)
        report = binary_report(table, criterion, rows, exclude=fixed, place=place, every=every, near=near)
        star_choice(report, choice, table, rows)
        if not every and near is not None:
            _one_for_the_tree(report, near[0])
        report.path_note = _path_note(table, params, parsed)
        if hidden:
            chosen = report.candidates[report.chosen] if report.chosen is not None else None
            report.candidates = [c for c in report.candidates if c.attribute not in hidden]
            report.chosen = next((k for k, c in enumerate(report.candidates) if c is chosen), None)
            if chosen is not None and report.chosen is None:
                report.elsewhere, report.elsewhere_attribute = chosen.label(), chosen.attribute
        return report
    from dtcli.explain.c45 import c45_report

    params = grow_params("c45", criterion=criterion, thresholds=thresholds, min_leaf=min_leaf)
    report = c45_report(table, np.asarray(rows), params, exclude=fixed)
    report.path_note = _path_note(table, params, parsed)
    report.partial = bool(hidden)
    report.attributes = [row for row in report.attributes if row.name not in hidden]
    return report


def regression_found(table, rows, found, fixed, min_leaf):
    """(``found``, the regression report's rows, with the chosen attribute's split replaced by the one
    the CART grower makes at these rows; the name of that attribute, None when the node stays a leaf)."""
    from dtcli.induction.algorithms import grow_params
    from dtcli.induction.grow.grower import node_choice

    rows = rows[table.labelled()[rows]]
    available = [i for i, a in enumerate(table.attributes) if a.name not in fixed]
    choice = node_choice(table, rows, grow_params("cart", min_leaf=min_leaf), available)
    if choice is None:
        return found, None
    chosen = choice.test.attribute.name
    return [(name, choice.test if name == chosen else test, d) for name, test, d in found], chosen


def _path_note(table, params, parsed):
    """``tree_path.off_path`` for the --where conditions ``parsed``, the tree grower deciding each node."""
    if not parsed:
        return None
    from dtcli.explain.tree_path import off_path
    from dtcli.induction.grow.grower import node_choice
    from dtcli.model.where import select

    def choice_at(taken):
        above = {c.name for c in taken if c.op == "="}
        rows = select(table, taken)
        rows = rows[table.labelled()[rows]]
        available = [i for i, a in enumerate(table.attributes) if a.name not in above]
        choice = node_choice(table, rows, params, available) if len(rows) else None
        if choice is None:
            return None
        test = choice.test
        threshold, values = getattr(test, "threshold", None), getattr(test, "values", None)
        return test.attribute.name, test.kind, threshold, values, test.attribute.time

    note = off_path(list(parsed), choice_at)
    if note is None and params.missing == "fractional":
        note = _fractional_note(table, parsed)
    return note


def _fractional_note(table, parsed):
    """A note when rows without the value a --where condition tests also reach its node in the tree: C4.5
    sends such a row down every branch with a fraction of its weight, --where keeps none of it, so the
    tree's own choice at the node may differ from the table's."""
    from dtcli.model.where import select

    labelled = table.labelled()
    for condition in parsed:
        others = select(table, [c for c in parsed if c is not condition])
        missing = table.missing_mask(table.schema.index(condition.name))[others] & labelled[others]
        if missing.any():
            return (
                f"{int(missing.sum())} row(s) without a value of {condition.name} also reach this node in "
                "C4.5's tree, each with a fraction of its weight (J48's way); --where leaves them out, so the "
                "tree's own choice here may differ from this table's"
            )
    return None


def _one_for_the_tree(report, index: int) -> None:
    """Of the tree's attribute's candidates (all its subsets were scored to find the tree's), keep the
    one the tree splits by (or, if none is, the best)."""
    same = [c for c in report.candidates if c.index == index]
    if len(same) <= 1:
        return
    chosen = report.candidates[report.chosen] if report.chosen is not None else None
    kept = (
        chosen if chosen is not None and chosen.index == index else max(same, key=lambda c: c.score(report.criterion))
    )
    report.candidates = [c for c in report.candidates if c.index != index or c is kept]
    report.chosen = next((k for k, c in enumerate(report.candidates) if c is chosen), None)
