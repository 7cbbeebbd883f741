"""``dtcli.gain``: how well each attribute splits a table (or the rows of ``where``), as ``dtree gain`` reports it."""

from __future__ import annotations

import json

from dtcli.errors import DataError, ParameterError


class GainTable:
    """A ``dtree gain`` report: ``report`` (the core's GainReport), ``chosen`` (the attribute the tree splits
    on there, or None), ``to_json()`` (``dtree gain -f json``), ``to_csv()``, ``str()`` (the table as
    ``dtree gain -o FILE`` writes it), ``to_frame()`` (a row per attribute) and, in Jupyter, an HTML table.

    >>> import dtcli
    >>> table = dtcli.gain("sample_data/weather.csv", ignore="Day", where="Outlook=Sunny")
    >>> table
    <dtcli.GainTable of 3 attributes; the tree splits on 'Humidity'>
    >>> [(r["name"], round(r["gain"], 3)) for r in table.records()]
    [('Humidity', 0.971), ('Temperature', 0.571), ('Wind', 0.02)]
    """

    COLUMNS = ("name", "kind", "threshold", "missing", "weighted_entropy", "gain", "split_info", "gain_ratio",
               "gini_gain")  # fmt: skip

    def __init__(self, report, where: list[str]):
        self.report = report
        self.where = where

    @property
    def chosen(self) -> str | None:
        return self.report.chosen

    def to_json(self) -> str:
        from dtcli.render.gain import to_json

        return to_json(self.report, self.where)

    def to_csv(self) -> str:
        from dtcli.render.gain import to_csv

        return to_csv(self.report)

    def __str__(self) -> str:
        from dtcli.render.gain import gain_text

        return gain_text(self.report, self.where, "table")

    def records(self) -> list[dict]:
        """One dict per attribute, with the keys of ``COLUMNS`` (threshold None for a nominal attribute)."""
        found = json.loads(self.to_json())["attributes"]
        return [{key: row.get(key) for key in self.COLUMNS} for row in found]

    def to_frame(self):
        """A pandas DataFrame of ``records()``."""
        from dtcli.io.frames import records_frame

        return records_frame(self.records(), list(self.COLUMNS))

    def _repr_html_(self) -> str:
        from dtcli.render.gain import footer, heading
        from dtcli.render.html import html_table, paragraph

        rows = [[("* " if r["name"] == self.chosen else "") + r["name"], *list(r.values())[1:]] for r in self.records()]
        for row in rows:  # a threshold exactly (the scores to 4 digits)
            row[2] = None if row[2] is None else repr(row[2])
        return html_table(list(self.COLUMNS), rows, heading(self.report, self.where)) + paragraph(footer(self.report))

    def __repr__(self) -> str:
        return f"<dtcli.GainTable of {len(self.report.attributes)} attributes; the tree splits on {self.chosen!r}>"


def gain(data, target=None, algorithm="id3", where=(), criterion=None, thresholds=None, min_leaf=None, names=None,
         **options) -> GainTable:  # fmt: skip
    """Score every attribute as a split of ``data`` (or of its rows satisfying every ``where`` condition,
    e.g. ``["Outlook=Sunny"]``), as ``dtree gain`` does with ``-a id3`` (information gain, multiway; the
    default) or ``-a c45`` (J48's gain ratio among attributes of at least average gain); the attribute
    the tree grower would split on there is ``chosen``. ``criterion``, ``thresholds``, ``min_leaf``
    (c45) and the reading options as for the command and ``dtcli.fit``; binary splits (``-a cart``) and
    numeric targets are not in the API yet (use ``dtree gain``).

    Raises ParameterError (an option the command refuses, ``where`` matching no row), DataError.

    >>> import dtcli
    >>> table = dtcli.gain("sample_data/weather.csv", ignore="Day")
    >>> table.chosen, round(table.records()[0]["gain"], 3)
    ('Outlook', 0.247)
    """
    import numpy as np

    from dtcli.api.data import training_table
    from dtcli.api.options import DATA_OPTIONS, algorithm_name, checked
    from dtcli.induction.search.c45 import Thresholds
    from dtcli.model.where import parse_condition, select

    name = algorithm_name(algorithm)
    if name == "cart":
        raise ParameterError("dtcli.gain scores multiway splits (id3, c45); for CART's binary splits use dtree gain")
    options = checked({**options, "target": target, "min_leaf": min_leaf}, DATA_OPTIONS + ("task", "min_leaf"))
    if name == "id3" and options.get("min_leaf") is not None:
        raise ParameterError("--min-leaf applies to -a c45 and -a cart")
    if criterion in ("cart",):
        raise ParameterError("--criterion cart (Zaki's CART measure) scores binary splits: use dtree gain -a cart")
    criterion = {None: "gain-ratio" if name == "c45" else "gain", "entropy": "gain"}.get(criterion, criterion)
    thresholds = thresholds or ("data" if name == "c45" else "midpoint")
    table, _ = training_table(data, options, names)
    if table.is_regression:
        raise DataError(f"{table.source}: the target is numeric: give task='classification', or use dtree gain -a cart")
    if table.n_rows == 0:
        raise DataError(f"{table.source}: no data rows; the file has a header but no examples")
    where = [where] if isinstance(where, str) else list(where)
    parsed = [parse_condition(c) for c in where]
    rows = select(table, parsed)
    if len(rows) == 0:
        raise ParameterError(f"{table.source}: no row satisfies --where {' and '.join(where)}")
    fixed = tuple(c.name for c in parsed if c.op == "=")
    if name == "c45":
        from dtcli.explain.c45 import c45_report
        from dtcli.induction.algorithms import grow_params

        params = grow_params("c45", criterion=criterion, thresholds=thresholds, min_leaf=options.get("min_leaf"))
        rows = rows[table.labelled()[rows]]
        report = c45_report(table, np.asarray(rows), params, exclude=fixed)
        report.path_note = _path_note(table, parsed, lambda taken, available, rows: _grown(params, rows, available))
    else:
        from dtcli.explain.report import gain_report

        place = Thresholds(table, thresholds).place
        report = gain_report(table, criterion, rows, exclude=fixed, place=place)

        def choice(taken, available, rows):
            above = tuple(c.name for c in taken if c.op == "=")
            found = gain_report(table, criterion, rows, above, place)
            if found.chosen is None:
                return None
            row = next(r for r in found.attributes if r.name == found.chosen)
            return row.name, "nominal" if row.threshold is None else "numeric", row.threshold, None

        report.path_note = _path_note(table, parsed, choice, labelled_only=False)
    return GainTable(report, [str(c) for c in parsed])


def _grown(params, found, available):
    """The split the tree grower makes at the rows of ``found`` = (table, rows), in ``tree_path.off_path``'s
    form (None: a leaf, or no rows)."""
    from dtcli.induction.grow.grower import node_choice

    table, rows = found
    choice = node_choice(table, rows, params, available) if len(rows) else None
    if choice is None:
        return None
    test = choice.test
    return test.attribute.name, test.kind, getattr(test, "threshold", None), getattr(test, "values", None)


def _path_note(table, parsed, choose, labelled_only: bool = True):
    """``tree_path.off_path`` for the ``where`` conditions, ``choose(taken, available, rows)`` deciding each node."""
    if not parsed:
        return None
    from dtcli.explain.tree_path import off_path
    from dtcli.model.where import select

    def choice_at(taken):
        above = {c.name for c in taken if c.op == "="}
        rows = select(table, taken)
        if labelled_only:
            rows = rows[table.labelled()[rows]]
        available = [i for i, a in enumerate(table.attributes) if a.name not in above]
        return choose(taken, available, (table, rows) if labelled_only else rows)

    return off_path(list(parsed), choice_at)
