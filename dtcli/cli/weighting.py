"""--weights COL and --class-weight (train, evaluate DATA, gain): the training rows' case weights."""

from __future__ import annotations

from typing import NamedTuple

import click

from dtcli.cli.options import option_group
from dtcli.errors import ParameterError


class Weighting(NamedTuple):
    """--weights COL (a numeric column of case weights, left out of the attributes) and --class-weight."""

    column: str | None = None
    class_weight: str | None = None

    @property
    def wanted(self) -> bool:
        return self.column is not None or self.class_weight is not None

    def cells(self, raw, target: str, ignored: list):
        """The --weights column's numbers (``io.weights.weight_cells``; None without one), its name added to
        ``ignored`` (the columns left out of the attributes)."""
        if self.column is None:
            return None
        from dtcli.io.weights import weight_cells

        weights = weight_cells(raw, self.column, target)
        ignored.append(self.column)
        return weights

    def apply(self, table, raw, ids, infer, weights):
        """(table, ids) with the case weights times the class weights in ``table.weights``: the
        estimators' weighting (``induction.weights.weigh``); rows of weight 0 are left out, the table
        inferred again (``infer(raw)``) from the rows kept, as if they alone were in the file."""
        from dtcli.induction.weights import parse_class_weight, weigh
        from dtcli.io.weights import kept_rows

        spec = None if self.class_weight is None else parse_class_weight(self.class_weight, table.classes)
        if spec is not None and table.is_regression:
            raise ParameterError("--class-weight weighs classes: leave it out of a regression (--task regression)")
        table, kept = weigh(table, weights, spec, lambda rows: infer(kept_rows(raw, rows)))
        if kept is not None and ids is not None:
            ids = [cell for cell, keep in zip(ids, kept.tolist()) if keep]
        return table, ids

    def record(self, tree):
        """``tree`` with the weighting in its parameters, as the model file records it (``recorded``)."""
        from dtcli.induction.weights import parse_class_weight, recorded

        spec = None if self.class_weight is None else parse_class_weight(self.class_weight)
        tree.parameters.update(recorded(self.column, spec))
        return tree


weighting_options = option_group(
    "weighting",
    Weighting,
    click.option(
        "--weights",
        "column",
        metavar="COL",
        help="Weigh each row by this numeric column (left out of the attributes): a whole number counts as "
        "that many copies of the row, 0 leaves it out; weights that are not all whole numbers are scaled "
        "to sum to the rows kept. A missing, negative, NaN or infinite weight is an error.",
    ),
    click.option(
        "--class-weight",
        metavar="balanced|CLASS=W,...",
        help="Multiply each row's weight by its class's weight, as scikit-learn's class_weight: balanced "
        "gives class c n / (k * count(c)) (n rows, k classes); CLASS=W,CLASS=W names them (others: 1).",
    ),
)
