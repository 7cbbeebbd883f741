"""``dtcli.diff``: are two trees (or two rule sets) the same, and where do they first differ, as ``dtree diff`` says."""

from __future__ import annotations

import os

from dtcli.errors import ParameterError


class Difference:
    """The comparison of two models: ``equivalent``, ``comparison`` (the core's, with ``differences`` and
    ``summary``), ``str()`` (``dtree diff``'s text), ``to_json()`` (its ``-f json`` document); in Jupyter
    an HTML table of the differences.

    >>> import dtcli
    >>> a = dtcli.fit("sample_data/weather.csv", ignore="Day")
    >>> b = dtcli.fit("sample_data/weather.csv", ignore="Day", max_depth=1)
    >>> print(dtcli.diff(a, b).text.splitlines()[0])
    Trees first (A) and second (B) differ
    """

    def __init__(self, comparison, names, formats, tolerance, agreement=None):
        self.comparison = comparison
        self.names = names
        self.formats = formats
        self.tolerance = tolerance
        self.agreement = agreement  # with data: {"data", "rows", "same", "share", "regression"}, as the document's

    @property
    def equivalent(self) -> bool:
        return self.comparison.equivalent

    @property
    def share(self) -> float | None:
        """With ``data``: the share of its rows both models predict alike (None without data, or no rows)."""
        return None if self.agreement is None else self.agreement["share"]

    @property
    def text(self) -> str:
        from dtcli.render.diff import diff_text

        return diff_text(self.comparison, self.names, self.agreement)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> str:
        from dtcli.render.diff import diff_json

        return diff_json(self.comparison, self.names, self.formats, self.tolerance, self.agreement)

    def _repr_html_(self) -> str:
        from dtcli.render.diff import diff_html

        return diff_html(self.comparison, self.names, self.agreement)

    def __bool__(self) -> bool:
        """True when the models differ (as diff(1)'s exit status 1)."""
        return not self.equivalent

    def __repr__(self) -> str:
        return f"<dtcli.Difference: {'equivalent' if self.equivalent else 'different'}>"


def diff(a, b, tolerance: float = 0.0, count_tolerance: float = 0.0, data=None, names=None, **options) -> Difference:
    """Compare ``a`` and ``b`` (each a ``Model``, a ``Rules``, or the path of a model or rules file) node by node,
    as ``dtree diff A B`` does: branch order and training metadata do not matter; thresholds and values
    compare within ``tolerance``, counts within ``count_tolerance`` (relative). With ``data`` (a path, or a
    DataFrame, dict or array as ``Model.predict`` takes it), also the share of its rows both predict alike,
    as ``--data``. ``options``: the reading options ``format_in``, ``max_bytes``, ``max_rows``, ``sep``,
    ``decimal``. A model is named by its file (a Model by ``path``; else ``first``, ``second``). Raises
    ParameterError for a tree against a rule set or a negative tolerance, ModelFormatError for a file that
    is no model.

    >>> import dtcli
    >>> dtcli.diff(dtcli.fit("sample_data/weather.csv", ignore="Day"), dtcli.fit("sample_data/weather.arff"))
    <dtcli.Difference: equivalent>
    >>> shallow = dtcli.fit("sample_data/weather.csv", ignore="Day", max_depth=1)
    >>> found = dtcli.diff(dtcli.fit("sample_data/weather.csv", ignore="Day"), shallow, data="sample_data/weather.csv")
    >>> found.share
    0.7142857142857143
    >>> print(found.text.splitlines()[-1])
    Agreement on sample_data/weather.csv: 10 of 14 rows (71.4%) get the same class
    """
    from dtcli.api.options import checked
    from dtcli.compare.findings import Tolerance
    from dtcli.compare.rules import compare_rule_sets
    from dtcli.compare.trees import compare_trees
    from dtcli.induction.params import check_finite
    from dtcli.model.format.model import FORMAT
    from dtcli.model.rules import RULES_FORMAT, RuleSet

    options = checked(options, ("format_in", "max_bytes", "max_rows", "sep", "decimal"))
    for option, value in (("--tolerance", tolerance), ("--count-tolerance", count_tolerance)):
        check_finite(option, value)
        if value < 0:
            raise ParameterError(f"{option} must be 0 or more (0: exactly equal)")
    (one, name_a), (two, name_b) = _model(a, "first", options), _model(b, "second", options)
    rules = (isinstance(one, RuleSet), isinstance(two, RuleSet))
    if rules[0] != rules[1]:
        tree, ruleset = (name_a, name_b) if rules[1] else (name_b, name_a)
        raise ParameterError(f"{ruleset} is a rule set and {tree} a tree: compare a tree with a tree, or the tree's "
                             "rules (Model.rules()) with the rule set")  # fmt: skip
    given = Tolerance(float(tolerance), float(count_tolerance))
    comparison = compare_rule_sets(one, two, given) if rules[0] else compare_trees(one, two, given)
    formats = (RULES_FORMAT, RULES_FORMAT) if rules[0] else (FORMAT, FORMAT)
    agreement = None if data is None else _agreement(one, two, data, names, options, given)
    return Difference(comparison, (name_a, name_b), formats, given, agreement)


def _agreement(one, two, data, names, options: dict, tolerance) -> dict:
    """The document's ``agreement``: the data, its rows, how many both models predict alike (``--data``)."""
    from dtcli.api.data import table_for
    from dtcli.compare.agreement import agreement

    if one.schema.is_regression != two.schema.is_regression:
        shown = os.fspath(data) if isinstance(data, (str, os.PathLike)) else "data"
        raise ParameterError(f"--data: {shown}: a regression model and a classification model predict nothing alike")
    if isinstance(data, (str, os.PathLike)):
        from dtcli.api.data import limits
        from dtcli.io.encode import encode_for_schema, text_columns
        from dtcli.io.read import read_data

        path = os.fspath(data)
        texts = list(dict.fromkeys(text_columns(one.schema) + text_columns(two.schema)))
        raw = read_data(path, options.get("format_in"), texts, limits(options))
        tables = (encode_for_schema(raw, one.schema).table, encode_for_schema(raw, two.schema).table)
    else:
        tables = (table_for(one.schema, data, names)[0], table_for(two.schema, data, names)[0])
        path = tables[0].source
    found = agreement(one, tables[0], two, tables[1], tolerance)
    regression = one.schema.is_regression
    return {"data": path, "rows": found.rows, "same": found.same, "share": found.share, "regression": regression}


def _model(item, default: str, options: dict):
    """(the core's Tree or RuleSet, its name: the path (a Model's ``path``), or ``default``)."""
    from dtcli.api.model import Model
    from dtcli.api.rules import Rules

    if isinstance(item, Model):
        return item.tree, item.path or default
    if isinstance(item, Rules):
        return item.ruleset, default
    if isinstance(item, (str, os.PathLike)):
        from dtcli.api.data import limits
        from dtcli.errors import DataError, ModelFormatError
        from dtcli.io.source import MODEL, read_text
        from dtcli.model.format.model import loads_model

        path = os.fspath(item)
        try:
            text = read_text(path, MODEL, limits(options).max_bytes)
        except DataError as exc:
            raise ModelFormatError(str(exc)) from None
        return loads_model(text, path), path
    raise ParameterError(f"diff compares Models, Rules or model files, not {type(item).__name__}")
