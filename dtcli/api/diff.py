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

    def __init__(self, comparison, names, formats, tolerance):
        self.comparison = comparison
        self.names = names
        self.formats = formats
        self.tolerance = tolerance

    @property
    def equivalent(self) -> bool:
        return self.comparison.equivalent

    @property
    def text(self) -> str:
        from dtcli.render.diff import diff_text

        return diff_text(self.comparison, self.names)

    def __str__(self) -> str:
        return self.text

    def to_json(self) -> str:
        from dtcli.render.diff import diff_json

        return diff_json(self.comparison, self.names, self.formats, self.tolerance)

    def _repr_html_(self) -> str:
        from dtcli.render.diff import diff_html

        return diff_html(self.comparison, self.names)

    def __bool__(self) -> bool:
        """True when the models differ (as diff(1)'s exit status 1)."""
        return not self.equivalent

    def __repr__(self) -> str:
        return f"<dtcli.Difference: {'equivalent' if self.equivalent else 'different'}>"


def diff(a, b, tolerance: float = 0.0, count_tolerance: float = 0.0) -> Difference:
    """Compare ``a`` and ``b`` (each a ``Model``, a ``Rules``, or the path of a model or rules file) node by node,
    as ``dtree diff A B`` does: branch order and training metadata do not matter; thresholds and values
    compare within ``tolerance``, counts within ``count_tolerance`` (relative). Raises ParameterError for a
    tree against a rule set or a negative tolerance, ModelFormatError for a file that is no model.

    >>> import dtcli
    >>> dtcli.diff(dtcli.fit("sample_data/weather.csv", ignore="Day"), dtcli.fit("sample_data/weather.arff"))
    <dtcli.Difference: equivalent>
    """
    from dtcli.compare.findings import Tolerance
    from dtcli.compare.rules import compare_rule_sets
    from dtcli.compare.trees import compare_trees
    from dtcli.induction.params import check_finite
    from dtcli.model.format.model import FORMAT
    from dtcli.model.rules import RULES_FORMAT, RuleSet

    for option, value in (("--tolerance", tolerance), ("--count-tolerance", count_tolerance)):
        check_finite(option, value)
        if value < 0:
            raise ParameterError(f"{option} must be 0 or more (0: exactly equal)")
    (one, name_a), (two, name_b) = _model(a, "first"), _model(b, "second")
    rules = (isinstance(one, RuleSet), isinstance(two, RuleSet))
    if rules[0] != rules[1]:
        raise ParameterError(f"{name_a if rules[0] else name_b} is a rule set and the other a tree: compare a tree "
                             "with a tree, or the tree's rules with the rule set")  # fmt: skip
    given = Tolerance(float(tolerance), float(count_tolerance))
    comparison = compare_rule_sets(one, two, given) if rules[0] else compare_trees(one, two, given)
    formats = (RULES_FORMAT, RULES_FORMAT) if rules[0] else (FORMAT, FORMAT)
    return Difference(comparison, (name_a, name_b), formats, given)


def _model(item, default: str):
    """(the core's Tree or RuleSet, its name: the path, or ``default``)."""
    from dtcli.api.model import Model
    from dtcli.api.rules import Rules

    if isinstance(item, Model):
        return item.tree, default
    if isinstance(item, Rules):
        return item.ruleset, default
    if isinstance(item, (str, os.PathLike)):
        from dtcli.errors import DataError, ModelFormatError
        from dtcli.io.source import MODEL, read_text
        from dtcli.model.format.model import loads_model

        path = os.fspath(item)
        try:
            text = read_text(path, MODEL)
        except DataError as exc:
            raise ModelFormatError(str(exc)) from None
        return loads_model(text, path), path
    raise ParameterError(f"diff compares Models, Rules or model files, not {type(item).__name__}")
