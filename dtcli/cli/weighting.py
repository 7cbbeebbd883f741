"""--weights COL and --class-weight (train, evaluate DATA, gain): the training rows' case weights."""

from __future__ import annotations

import click

from dtcli.cli.options import option_group
from dtcli.pipeline.load import Weighting

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
