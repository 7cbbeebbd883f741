"""The options of judging a way of training on unseen rows: --cv, --split, --test and --jobs (evaluate and train).

They make one ``pipeline.crossval.Scheme``; ``pipeline.crossval.judge`` does the judging.
"""

from __future__ import annotations

import click

from dtcli.pipeline.crossval import Scheme


def _scheme(cv, split, test_data, jobs) -> Scheme:
    return Scheme(cv, split, test_data, jobs)


def scheme_options(cv_help: str, command: str = "evaluate"):
    """--cv, --split, --test and --jobs as a Scheme ``scheme`` (``cv_help``: the command's words for --cv)."""
    from dtcli.cli.options import option_group

    return option_group(
        "scheme",
        _scheme,
        click.option("--cv", type=int, metavar="K", help=cv_help),
        click.option(
            "--split",
            type=float,
            metavar="F",
            help=("After the tree, judge" if command == "train" else "Judge")
            + " a tree trained on the share F of DATA's rows (stratified by class, drawn with --seed) on the "
            "other rows (e.g. 0.66; Weka's -split-percentage 66).",
        ),
        click.option(
            "--test",
            "test_data",
            metavar="FILE",
            help=("After the tree, judge it" if command == "train" else "Judge a tree trained on all of DATA")
            + " on FILE (a CSV, ARFF or Parquet file with the same columns; Weka's -T).",
        ),
        click.option(
            "--jobs",
            type=int,
            metavar="N",
            help="Run the --cv folds in N processes (default: the number of cores this process may use); "
            "the results are the same for any N.",
        ),
    )
