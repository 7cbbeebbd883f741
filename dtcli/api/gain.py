"""``dtcli.gain``: how well each attribute splits a table (or the rows of ``where``), as ``dtree gain`` reports it."""

from __future__ import annotations

import json


class GainTable:
    """A ``dtree gain`` report: ``kind`` (``multiway``: one branch per value, as ``-a id3`` and ``-a c45``;
    ``binary``: CART's candidates, as ``-a cart``; ``regression``: a numeric target's best splits by
    decrease in mean squared error), ``report`` (the core's report), ``chosen`` (the attribute the tree
    splits on there, or None), ``to_json()`` (``dtree gain -f json``), ``to_csv()`` (``-f csv``), ``str()``
    (the table as ``dtree gain -o FILE`` writes it), ``records()`` and ``to_frame()`` (a row per attribute,
    or per candidate split), ``explain()`` (``--explain``) and, in Jupyter, an HTML table.

    >>> import dtcli
    >>> table = dtcli.gain("sample_data/weather.csv", ignore="Day", where="Outlook=Sunny")
    >>> table
    <dtcli.GainTable of 3 attributes; the tree splits on 'Humidity'>
    >>> [(r["name"], round(r["gain"], 3)) for r in table.records()]
    [('Humidity', 0.971), ('Temperature', 0.571), ('Wind', 0.02)]
    >>> cart = dtcli.gain("sample_data/iris.csv", algorithm="cart")
    >>> cart.chosen, cart.chosen_split
    ('petalwidth', 'petalwidth <= 0.8')
    """

    COLUMNS = ("name", "kind", "threshold", "missing", "weighted_entropy", "gain", "split_info", "gain_ratio",
               "gini_gain")  # fmt: skip
    EXTRA = ("cost", "cost_score", "mdl", "eligible")  # (multiway, when the report has them)
    BINARY_COLUMNS = ("name", "kind", "split", "values", "threshold", "missing", "gain", "gini_gain", "cart")
    REGRESSION_COLUMNS = ("name", "split", "mse_decrease")

    def __init__(self, report, where: list[str], kind: str = "multiway", context=None):
        self.report = report
        self.where = where
        self.kind = kind
        self.context = context  # (what explain() derives from)

    def explain(self, fmt: str = "text", digits: int = 3) -> str:
        """The worked computation, as ``dtree gain ... --explain --explain-format FMT --digits DIGITS`` prints
        it: counts, entropies, gains, split information, gain ratio and Gini written out (``fmt``: text,
        markdown or latex); for ID3's scores and CART's binary splits.

        >>> import dtcli
        >>> print(dtcli.gain("sample_data/weather.csv", ignore="Day", attribute="Wind").explain().splitlines()[0])
        PlayTennis: the worked computation
        """
        from dtcli.api.gain_search import explained

        return explained(self.kind, self.report, self.context, fmt, digits)

    @property
    def chosen(self) -> str | None:
        """The attribute the tree grower splits on at these rows (None: a leaf)."""
        if self.kind == "regression":
            return self.report[3]
        if self.kind == "binary":
            found = self.report.candidates[self.report.chosen] if self.report.chosen is not None else None
            return found.attribute if found is not None else self.report.elsewhere_attribute
        return self.report.chosen

    @property
    def chosen_split(self) -> str | None:
        """The chosen split as the table writes it (``Age <= 22.5``, ``Car in {Sports}``; multiway: the attribute)."""
        if self.kind == "binary":
            return json.loads(self.to_json())["chosen_split"]
        if self.kind == "regression":
            return next((r["split"] for r in self.records() if r["name"] == self.chosen), None)
        return self.chosen

    def _output(self, fmt: str) -> str:
        if self.kind == "regression":
            from dtcli.render.gain import regression_output

            stats, found, subset, chosen = self.report
            return regression_output(stats, found, subset, self.where, fmt, chosen)
        if self.kind == "binary":
            from dtcli.render import gain_binary

            if fmt == "json":
                return gain_binary.to_json(self.report, self.where)
            if fmt == "csv":
                return gain_binary.to_csv(self.report)
            from dtcli.render.console import rendered

            return rendered(*gain_binary.text(self.report, self.where))
        from dtcli.render.gain import gain_text

        return gain_text(self.report, self.where, fmt)

    def to_json(self) -> str:
        """The ``dtree-gain`` document, byte for byte ``dtree gain ... -f json``."""
        return self._output("json")

    def to_csv(self) -> str:
        """The table as ``dtree gain ... -f csv`` writes it."""
        return self._output("csv")

    def __str__(self) -> str:
        return self._output("table")

    def columns(self) -> list[str]:
        """The keys of ``records()``."""
        if self.kind == "binary":
            return list(self.BINARY_COLUMNS)
        if self.kind == "regression":
            return list(self.REGRESSION_COLUMNS)
        found = json.loads(self.to_json())["attributes"]
        return list(self.COLUMNS) + [key for key in self.EXTRA if any(key in row for row in found)]

    def records(self) -> list[dict]:
        """One dict per attribute (binary: per candidate split) with the keys of ``columns()`` (a threshold
        None for a nominal attribute, values None for a numeric one), every digit."""
        document = json.loads(self.to_json())
        found = document["candidates"] if self.kind == "binary" else document["attributes"]
        return [{key: row.get(key) for key in self.columns()} for row in found]

    def to_frame(self):
        """A pandas DataFrame of ``records()``."""
        from dtcli.io.frames import records_frame

        return records_frame(self.records(), self.columns())

    def _repr_html_(self) -> str:
        from dtcli.render.html import html_table, paragraph

        records = self.records()
        if self.kind == "regression":
            text = str(self).splitlines()
            rows = [[("* " if r["name"] == self.chosen else "") + r["name"], r["split"], r["mse_decrease"]]
                    for r in records]  # fmt: skip
            return html_table(list(self.REGRESSION_COLUMNS), rows, text[0]) + paragraph(text[-1])
        from dtcli.render.gain import heading

        if self.kind == "binary":
            from dtcli.render.gain_binary import footer

            mark = self.report.chosen
            rows = [[("* " if k == mark else "") + r["name"], *list(r.values())[1:]] for k, r in enumerate(records)]
            for row in rows:
                row[3] = None if row[3] is None else ", ".join(row[3])
                row[4] = None if row[4] is None else repr(row[4])
            caption = heading(self.report, self.where)
            return html_table(list(self.BINARY_COLUMNS), rows, caption) + paragraph(footer(self.report))
        from dtcli.render.gain import footer

        rows = [[("* " if r["name"] == self.chosen else "") + r["name"], *list(r.values())[1:]] for r in records]
        for row in rows:  # a threshold exactly (the scores to 4 digits)
            row[2] = None if row[2] is None else repr(row[2])
        return html_table(self.columns(), rows, heading(self.report, self.where)) + paragraph(footer(self.report))

    def __len__(self) -> int:
        """The number of attributes shown (binary: of candidate splits)."""
        if self.kind == "regression":
            return len(self.report[1])
        return len(self.report.candidates if self.kind == "binary" else self.report.attributes)

    def __repr__(self) -> str:
        what = "candidate splits" if self.kind == "binary" else "attributes"
        return f"<dtcli.GainTable of {len(self)} {what}; the tree splits on {self.chosen!r}>"


def gain(data, target=None, algorithm=None, where=(), criterion=None, thresholds=None, min_leaf=None, splits=None,
         attribute=None, thresholds_all=False, costs=None, names=None, **options) -> GainTable:  # fmt: skip
    """Score every attribute as a split of ``data`` (or of its rows satisfying every ``where`` condition,
    e.g. ``["Outlook=Sunny"]``; also !=, <, <=, >, >=), as ``dtree gain`` does, and return a ``GainTable``.

    Parameters (``dtree gain``'s options spelt with ``_``):
        algorithm: ``id3`` (the default: information gain, one branch per value), ``c45`` (J48's gain
            ratio among attributes of at least average gain, numeric cuts with the MDL correction,
            ``min_leaf`` 2) or ``cart`` (binary splits, Gini; the default with ``splits="binary"``).
        splits: ``multiway`` or ``binary`` (every split CART considers, A in {values} and A <= t).
        criterion: ``gain`` (``entropy``), ``gain-ratio``, ``gini``, ``cart`` (binary), ... as --criterion.
        thresholds: ``midpoint`` or ``data`` (default: data with c45, else midpoint).
        min_leaf: c45 and cart: the cases each branch (side) needs, as ``dtree train -m``.
        attribute: a name or a list of names: only these attributes are shown (all are scored).
        thresholds_all: list every candidate cut of each numeric attribute (id3), or with binary splits
            every split CART considers (by default each attribute's best).
        costs: a file of lines ``attribute,cost`` (id3, multiway); with ``cost_measure``, ``nunez_w``.
        options: ``ignore``, ``nominal``, ``task`` (a numeric target is regression for cart: each
            attribute's best split by decrease in mean squared error; ``task="classification"`` takes
            its values as classes), ``weights`` and ``class_weight``, and the reading options, as
            for ``dtcli.fit``.

    The table's ``chosen`` is the attribute ``dtcli.fit`` with the same algorithm and options splits on there.

    Raises ParameterError (an option the command refuses, ``where`` matching no row), DataError.

    >>> import dtcli
    >>> table = dtcli.gain("sample_data/weather.csv", ignore="Day")
    >>> table.chosen, round(table.records()[0]["gain"], 3)
    ('Outlook', 0.247)
    >>> dtcli.gain("sample_data/weather.csv", ignore="Day", algorithm="c45").chosen
    'Outlook'
    """
    from dtcli.api.data import training_table
    from dtcli.api.gain_search import asked, scored, texts
    from dtcli.api.options import DATA_OPTIONS, checked

    allowed = DATA_OPTIONS + ("task", "min_leaf", "cost_measure", "nunez_w")
    options = checked({**options, "target": target, "min_leaf": min_leaf}, allowed)
    task = None if options.get("task") in (None, "auto") else options["task"]
    given = asked(algorithm, splits, criterion, thresholds, options.pop("min_leaf"), thresholds_all, costs,
                  options.pop("cost_measure", None), options.pop("nunez_w", None), attribute)  # fmt: skip
    options["task"] = task
    table, _ = training_table(data, options, names)
    conditions = list(texts(where, "--where"))
    kind, report, shown, context = scored(table, conditions, given, task)
    return GainTable(report, shown, kind, context)
