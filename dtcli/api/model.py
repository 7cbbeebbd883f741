"""``Model``: a trained tree with the methods a notebook needs: predict, explain, save, pictures.

A Model wraps the core's ``Tree`` (``model.tree``) and the user's class labels; what it
saves is the file ``dtree train -o`` writes, and ``dtree predict`` reads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from dtcli.api.data import table_for
from dtcli.model.table import MISSING
from dtcli.model.tree import NumericTest, decision_threshold, single_precision


@dataclass(frozen=True)
class NodeInfo:
    """One node as plain values: ``id`` (preorder, the root 0), ``parent`` (None at the root), ``depth``,
    ``condition`` (the branch from the parent, e.g. ``Outlook = Sunny``; "" at the root), ``split``
    (the attribute tested, None at a leaf), ``counts`` (weighted training cases by class, or the
    weight of a regression node), ``prediction`` (class label, or a regression node's mean)."""

    id: int
    parent: int | None
    depth: int
    condition: str
    split: str | None
    counts: dict
    prediction: object

    @property
    def is_leaf(self) -> bool:
        return self.split is None


@dataclass(frozen=True)
class Explanation:
    """The path of one row: each ``(condition, value)`` it satisfied, and what the node it stopped at predicts.
    ``stopped`` says why the path ends before a leaf (a missing value), else "" (a leaf)."""

    steps: tuple
    prediction: object
    stopped: str = ""

    def __str__(self) -> str:
        lines = [f"{condition}   (value: {value!r})" for condition, value in self.steps]
        if self.stopped:
            lines.append(self.stopped)
        lines.append(f"=> {self.prediction!r}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from dtcli.render.html import html_table, paragraph

        rows = [[condition, str(value)] for condition, value in self.steps]  # (a value exactly as given)
        end = paragraph((self.stopped + "\n" if self.stopped else "") + f"prediction: {self.prediction!r}")
        return html_table(["condition", "value"], rows, "Path from the root") + end if rows else end


class Model:
    """A decision tree trained by ``dtcli.fit`` or read by ``dtcli.load_model``.

    Example:
        >>> import dtcli
        >>> model = dtcli.fit("sample_data/weather.csv", ignore="Day")
        >>> model.predict({"Outlook": "Sunny", "Temperature": "Hot", "Humidity": "High", "Wind": "Weak"})
        array(['No'], dtype=object)
        >>> model.classes
        ('No', 'Yes')
    """

    def __init__(self, tree, labels=None, path=None):
        self.tree = tree
        self.labels = tuple(tree.classes) if labels is None else tuple(labels)
        self.path = path  # the file it was read from or last saved to (None: only in memory)

    @property
    def algorithm(self) -> str:
        """``id3``, ``c45`` or ``cart``."""
        return self.tree.algorithm

    @property
    def classes(self) -> tuple:
        """The class labels (the user's values when trained from a DataFrame), in the model's order;
        () for a regression tree."""
        return () if self.tree.schema.is_regression else self.labels

    @property
    def attributes(self) -> list[str]:
        """The names of the attributes the tree may test, in training order."""
        return [a.name for a in self.tree.schema.attributes]

    @property
    def target(self) -> str:
        return self.tree.schema.target.name

    @property
    def is_regression(self) -> bool:
        return self.tree.schema.is_regression

    def predict_proba(self, data, names=None, **options) -> np.ndarray:
        """Class probabilities, one row per row of ``data`` and one column per class in ``classes``
        (for a regression tree, one column: the prediction), computed as ``dtree predict`` does.

        ``data``: a path (read as ``dtree predict`` reads DATA; ``format_in``, ``max_bytes``, ``max_rows``,
        ``sep``, ``decimal``), a DataFrame, a dict of columns, one row (a dict, a Series), or a 2-D array whose
        columns are the attributes in order (or named by ``names``). A nominal value never seen in
        training counts as missing. Raises DataError when a column the tree needs is absent or a
        numeric one holds text.

        >>> import dtcli
        >>> model = dtcli.fit("sample_data/weather.csv", ignore="Day")
        >>> model.predict_proba({"Outlook": "Overcast", "Temperature": "Hot", "Humidity": "High", "Wind": "Weak"})
        array([[0., 1.]])
        """
        from dtcli.induction.predict.apply import predict_proba

        table, _ = table_for(self.tree.schema, data, names, options)
        return predict_proba(self.tree, table)

    def predict(self, data, names=None, **options) -> np.ndarray:
        """The predicted class label of each row (the most probable; the first class in order on a tie), or
        the predicted number for a regression tree. ``data`` as for ``predict_proba``.

        >>> import dtcli
        >>> dtcli.fit("sample_data/weather.csv", ignore="Day").predict("sample_data/weather.csv")[:3]
        array(['No', 'No', 'Yes'], dtype=object)
        """
        proba = self.predict_proba(data, names, **options)
        if self.is_regression:
            return proba[:, 0]
        labels = np.empty(len(self.labels), dtype=object)
        labels[:] = self.labels
        return labels[np.argmax(proba, axis=1)]

    def evaluate(self, data, names=None, **options):
        """The model judged on ``data`` (with the target column) as ``dtree evaluate MODEL DATA`` judges it:
        an ``Evaluation`` whose ``to_json()`` and ``str()`` are the command's ``-f json`` document and text
        report (the model named by ``path``, the file it was read from or saved to), with the figures as
        attributes: ``accuracy``, ``kappa``, ``matrix``, ``labels``, ... (regression: ``rmse``, ``mae``,
        ``r2``, ``correlation``, ...). ``data`` as for ``predict_proba``; a value never seen in training
        counts as missing (from a file, with a ``DtreeWarning`` as the command warns).

        >>> import dtcli
        >>> model = dtcli.fit("sample_data/weather.csv", ignore="Day")
        >>> judged = model.evaluate("sample_data/weather.csv")
        >>> judged.accuracy, judged.kappa, judged.labels
        (1.0, 1.0, ('No', 'Yes'))
        >>> print(str(judged).splitlines()[0])
        === Evaluation on test set ===
        """
        from dtcli.api.evaluation import evaluate_model

        return evaluate_model(self, data, names, options)

    def explain(self, row) -> Explanation:
        """The path ``row`` (a dict of attribute values, or one row of a DataFrame) takes from the root: each
        condition it satisfied with its value, and the prediction where it ends. A missing or unseen value
        ends the path at that node (``dtree predict`` then sums the branches below; ``predict`` gives that).

        >>> import dtcli
        >>> model = dtcli.fit("sample_data/weather.csv", ignore="Day")
        >>> print(model.explain({"Outlook": "Sunny", "Temperature": "Hot", "Humidity": "High", "Wind": "Weak"}))
        Outlook = Sunny   (value: 'Sunny')
        Humidity = High   (value: 'High')
        => 'No'
        """
        table, _ = table_for(self.tree.schema, row)
        if table.n_rows != 1:
            raise ValueError(f"explain takes one row, got {table.n_rows}")
        attributes = self.tree.schema.attributes
        single = single_precision(self.tree.algorithm, self.tree.parameters)
        node, steps = self.tree.root, []
        while node.test is not None:
            i = attributes.index(node.test.attribute)
            column = table.columns[i][:1]
            test = node.test
            if isinstance(test, NumericTest) and single:  # (scikit-learn's test of a single-precision value)
                test = NumericTest(test.attribute, decision_threshold(test.threshold, single))
            branch = int(test.route(column)[0])
            value = _shown_value(attributes[i], column[0])
            if branch == MISSING:
                stopped = f"{node.test.attribute.name}: missing or never seen in training; the path stops here"
                return Explanation(tuple(steps), self._prediction(node), stopped)
            steps.append((node.test.branch_labels()[branch], value))
            node = node.children[branch]
        return Explanation(tuple(steps), self._prediction(node))

    def _prediction(self, node):
        return float(node.value) if node.value is not None else self.labels[node.label]

    @property
    def nodes(self) -> list[NodeInfo]:
        """Every node as a ``NodeInfo``, in preorder (the order ``dtree show`` prints them)."""
        classes = self.labels
        found: list[NodeInfo] = []
        stack = [(self.tree.root, None, 0, "")]
        while stack:
            node, parent, depth, condition = stack.pop()
            number = len(found)
            if node.value is not None:
                counts = {"weight": float(node.counts.sum())}
            else:
                counts = {label: float(c) for label, c in zip(classes, node.counts)}
            split = None if node.test is None else node.test.attribute.name
            found.append(NodeInfo(number, parent, depth, condition, split, counts, self._prediction(node)))
            if node.test is not None:
                labels = node.test.branch_labels()
                branches = reversed(list(enumerate(node.children)))
                stack.extend((child, number, depth + 1, labels[b]) for b, child in branches)
        return found

    def to_json(self) -> str:
        """The model file's text (the dtree-model document of dtree-formats(5)), as ``dtree train -o`` writes it."""
        from dtcli.model.format.model import dumps_model

        return dumps_model(self.tree)

    def save(self, path) -> None:
        """Write the model file to ``path`` (atomically): the file ``dtree train -o PATH`` writes, for
        ``dtree predict``, ``dtree show`` and ``dtcli.load_model``."""
        from dtcli.io.write import atomic
        from dtcli.model.format.model import dump_model

        with atomic(os.fspath(path)) as handle:
            dump_model(self.tree, handle.write)
        self.path = os.fspath(path)

    def to_text(self) -> str:
        """The tree as ``dtree show -f text`` prints it (J48's plain layout)."""
        from dtcli.render.export import printout

        return printout(self.tree, "text")

    def _picture(self, fmt: str, max_depth: int | None) -> str:
        from dtcli.induction.algorithms import ALGORITHMS
        from dtcli.render.export import draw

        known = ALGORITHMS.get(self.tree.algorithm)
        return draw(self.tree, fmt, max_depth, f"{known.title} tree" if known else "Decision tree")[0]

    def to_svg(self, max_depth: int | None = None) -> str:
        """The tree's picture as SVG (``dtree show -f svg``), cut at ``max_depth`` levels when given."""
        return self._picture("svg", max_depth)

    def to_dot(self, max_depth: int | None = None) -> str:
        """The tree as Graphviz DOT (``dtree show -f dot``)."""
        return self._picture("dot", max_depth)

    def to_mermaid(self, max_depth: int | None = None) -> str:
        """The tree as a Mermaid flowchart (``dtree show -f mermaid``)."""
        return self._picture("mermaid", max_depth)

    def rules(self):
        """The tree's rules, one per leaf (``dtree rules`` without pruning): a RuleSet whose ``str`` is
        ``dtree rules``' text.

        >>> import dtcli
        >>> print(str(dtcli.fit("sample_data/weather.csv", ignore="Day").rules()).splitlines()[0])
        R1: IF Outlook = Sunny AND Humidity = High THEN PlayTennis = No
        """
        from dtcli.api.rules import Rules
        from dtcli.induction.rules import extract

        return Rules(extract(self.tree))

    def prune(self, method="cost-complexity", data=None, **options) -> Model:
        """A pruned copy of this model, as ``dtree prune MODEL --method METHOD`` makes it: ``cost-complexity``
        (``ccp_alpha=A``, or ``cv_folds=K`` with the training ``data``; ``one_se``, ``seed``), ``pessimistic``
        (C4.5's, on the training ``data``; ``cf``, ``no_raise``, ``error_bound``) or ``reduced-error``
        (Mitchell's, on validation ``data``). ``data`` as for ``evaluate``, with the target column.

        >>> import dtcli
        >>> model = dtcli.fit("sample_data/iris.csv", algorithm="cart")
        >>> model.prune(ccp_alpha=0.02)
        <dtcli.Model cart: 4 leaves, 7 nodes, depth 3>
        """
        from dtcli.api.pruning import prune

        return Model(prune(self, method, data, **options), self.labels)

    def _repr_svg_(self) -> str:
        return self.to_svg()

    def __repr__(self) -> str:
        from dtcli.render.tree import summary

        return f"<dtcli.Model {self.algorithm}: {summary(self.tree)}>"


def _shown_value(attribute, cell):
    if attribute.is_nominal:
        return None if cell == MISSING else attribute.values[int(cell)]
    return None if np.isnan(cell) else float(cell)
