"""dtree's Python API: fit a tree, load a model, predict, explain and draw, as the commands do.

``import dtcli`` re-exports these names lazily (``dtcli.fit``, ``dtcli.load_model``,
``dtcli.gain``, ``dtcli.cross_validate``, ``dtcli.diff``, ``dtcli.Model``, the error family ``dtcli.DtreeError``),
so that importing dtcli loads neither numpy, pandas, numba nor scikit-learn. Options are the commands' long options
spelt with ``_`` (``min_leaf=2``, ``criterion="gini"``, ``no_prune=True``); a bad
option, value or table raises a ``DtreeError`` (``ParameterError``, ``DataError``,
``ModelFormatError``) with the one-line message the command prints after ``Error:``.
"""

from __future__ import annotations

import os

from dtcli.api.diff import Difference, diff
from dtcli.api.evaluation import Evaluation, Report, cross_validate
from dtcli.api.gain import GainTable, gain
from dtcli.api.model import Model
from dtcli.errors import DataError, DtreeError, DtreeWarning, ModelFormatError, ParameterError

__all__ = ["fit", "load_model", "gain", "cross_validate", "diff", "Model", "GainTable", "Evaluation", "Report",
           "Difference", "DtreeError", "DataError", "ModelFormatError", "ParameterError", "DtreeWarning"]  # fmt: skip


def fit(data, target=None, algorithm="id3", names=None, **options) -> Model:
    """Learn a decision tree, as ``dtree train DATA -a ALGORITHM [options]`` does.

    Parameters:
        data: a path to a CSV, ARFF or Parquet file (read as the commands read DATA), a pandas
            DataFrame (number columns are numeric; object, string, category and bool columns are
            nominal, a category's categories its values in order; NaN, None and NA are missing), a
            dict of columns, a structured numpy array, or a 2-D array with ``names``.
        target: the class column (default: the last column).
        algorithm: ``id3``, ``c45`` (also ``C4.5``, ``J48``) or ``cart``.
        options: ``dtree train``'s options spelt with ``_``: ``ignore``, ``nominal``, ``task``,
            ``criterion``, ``thresholds``, ``ties``, ``max_bins``, ``max_depth``, ``min_split``, ``min_leaf``,
            ``max_leaves``, ``chi2_alpha``, ``min_gain``, ``purity``, ``zero_gain``, ``missing``, ``costs``,
            ``cost_measure``, ``nunez_w``, ``prune``, ``no_prune``, ``cf``, ``error_bound``, ``no_raise``,
            ``holdout``, ``ccp_alpha``, ``cv_folds``, ``one_se``, ``seed``, ``engine``; ``weights`` (a column
            of case weights, as --weights) and ``class_weight`` (``"balanced"`` or a dict {class: weight}, as
            --class-weight); for a path also ``format_in``, ``max_bytes``, ``max_rows``, ``sep``, ``decimal``,
            ``strict``.

    Returns:
        a ``Model``; ``model.save(path)`` writes the very file ``dtree train -o PATH`` writes.

    Raises:
        ParameterError: an unknown option, or a value the command would refuse.
        DataError: a table that cannot be read or learned (the command's message).

    Warnings the command prints on stderr (rows without a class, ...) are ``DtreeWarning``s.

    Example:
        >>> import dtcli
        >>> model = dtcli.fit("sample_data/weather.csv", ignore="Day", algorithm="c45")
        >>> model
        <dtcli.Model c45: 5 leaves, 8 nodes, depth 2>
        >>> print(model.to_text(), end="")
        Outlook = Sunny
        |   Humidity = High: No (3.0)
        |   Humidity = Normal: Yes (2.0)
        Outlook = Overcast: Yes (4.0)
        Outlook = Rain
        |   Wind = Weak: Yes (3.0)
        |   Wind = Strong: No (2.0)
    """
    from dtcli.api.data import training_table, warn_all
    from dtcli.api.options import algorithm_name, checked, class_weight_of, learner
    from dtcli.pipeline.train import cost_complexity_result, grow, record_weighting

    options = checked({**options, "target": target})
    options["class_weight"] = class_weight_of(options.get("class_weight"))
    name = algorithm_name(algorithm)
    table, labels = training_table(data, options, names)
    fitting = learner(name, options, table)
    tree, warnings = grow(fitting, table)  # silently: no progress bar, no trace
    if fitting.ccp.wanted:
        tree = cost_complexity_result(tree, table, fitting.ccp, fitting.engine)[0]
    warn_all(warnings)
    if options.get("weights") is not None or options.get("class_weight") is not None:
        record_weighting(tree, options.get("weights"), options.get("class_weight"))
    return Model(tree, labels)


def load_model(path, max_bytes=None) -> Model:
    """Read a model file (``dtree train -o``; a tree, not a rule set), checked as ``dtree predict`` checks it.

    Raises:
        ModelFormatError: the file is no dtree model, is damaged, or is larger than ``max_bytes``
            (default: 1 GiB).

    Example:
        >>> import dtcli, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "weather.json")
        >>> dtcli.fit("sample_data/weather.csv", ignore="Day").save(path)
        >>> dtcli.load_model(path).predict({"Outlook": "Overcast", "Temperature": "Hot",
        ...                                 "Humidity": "High", "Wind": "Weak"})
        array(['Yes'], dtype=object)
    """
    from dtcli.io.source import DEFAULT_LIMITS
    from dtcli.model.tree import Tree
    from dtcli.pipeline.load import load_model as read_model

    path = os.fspath(path)
    tree = read_model(path, DEFAULT_LIMITS if max_bytes is None else DEFAULT_LIMITS._replace(max_bytes=max_bytes))
    if not isinstance(tree, Tree):
        raise ModelFormatError(f"{path}: is a rule set, not a tree; load the tree it came from")
    return Model(tree, path=path)
