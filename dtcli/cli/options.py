"""Shared click option groups: each adds its options to a command and hands it one typed object.

``option_group(name, build, *options)`` adds ``options`` and replaces their
values by ``build(**values)`` under ``name``. The groups: ``growth_options``
(algorithm, criterion, thresholds, ties, max-bins, engine: a ``Growth``),
``stopping_options`` (a dict of stopping rules), ``missing_option``,
``pessimistic_options`` (a ``PruneParams``), ``cost_complexity_options`` (a
``CostComplexity``), ``limit_options`` (``--max-bytes``, ``--max-rows``: a
``Limits``) and ``format_option``. Choices come from the core's
name tables, so ``--help`` lists what the core accepts.
"""

from __future__ import annotations

import functools
import os
import re
from typing import TYPE_CHECKING, NamedTuple

import click

from dtcli.errors import ParameterError
from dtcli.induction.backend import DASK, ENGINES
from dtcli.induction.criteria.bounds import BOUNDS
from dtcli.induction.names import ALGORITHM_NAMES, CRITERION_NAMES, MISSING_POLICIES, THRESHOLDS, TIES, ZERO_GAIN
from dtcli.io.source import DEFAULT_MAX_BYTES, DEFAULT_MAX_ROWS, Limits

if TYPE_CHECKING:
    from dtcli.induction.params import CostComplexity, PruneParams

ENGINE_VARIABLE = "DTREE_ENGINE"
ENGINE_ALIASES = {"numpy": "reference", "numba": "compiled"}  # DTREE_ENGINE's older values


def option_group(name: str, build, *options):
    """A decorator adding ``options`` (in this order) whose values reach the command as one
    keyword argument ``name``: ``build(**values)``."""

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            kwargs[name] = build(**{key: kwargs.pop(key) for key in keys})
            return func(*args, **kwargs)

        before = len(getattr(wrapper, "__click_params__", ()))
        for option in reversed(options):
            wrapper = option(wrapper)
        keys = [param.name for param in wrapper.__click_params__[before:]]
        return wrapper

    return decorate


def engine_request(value: str | None) -> str:
    """``--engine``, else ``DTREE_ENGINE`` (numpy and numba accepted; anything else is auto)."""
    if value is not None:
        return value
    choice = os.environ.get(ENGINE_VARIABLE, "auto").strip().lower()
    choice = ENGINE_ALIASES.get(choice, choice)
    return choice if choice in ENGINES else "auto"


engine_option = click.option(
    "--engine",
    type=click.Choice((*ENGINES, DASK)),
    help="Who grows the tree: auto (whichever would be done sooner, by the table's rows, attributes "
    "and classes and whether the compiled kernels are cached: the per-node reference on small tables), "
    "reference, or compiled (numba; where it cannot run, the reference with a warning); "
    "dask (dtree train only: on a Dask cluster; on quantile bins, 256 unless told otherwise: C4.5 "
    "unpruned or pruned pessimistically, CART unpruned with ties to the first column). "
    "The same tree either way. Default: the DTREE_ENGINE environment variable (numpy and numba "
    "also accepted), else auto.",
)


ALGORITHM_ALIASES = {"c4.5": "c45", "j48": "c45"}  # (any case) -a's other names


def algorithm_name(value: str) -> str:
    """-a's value as the choices spell it: lower case, aliases (C4.5, J48) as c45; others as given."""
    name = value.strip().lower()
    name = ALGORITHM_ALIASES.get(name, name)
    return name if name in (*ALGORITHM_NAMES, "c45") else value


class Growth(NamedTuple):
    """The growth options as given: the algorithm, the overrides of its preset, the engine asked for."""

    algorithm: str
    engine: str
    options: dict

    def params(self, **more):
        """The GrowParams: the algorithm's preset with these options and ``more`` over it."""
        from dtcli.induction.algorithms import grow_params  # (the presets: not needed to define the options)

        return grow_params(self.algorithm, **self.options, **more)


def _growth(algorithm, criterion, thresholds, ties, max_bins, engine) -> Growth:
    options = {"criterion": criterion, "thresholds": thresholds, "ties": ties, "max_bins": max_bins}
    return Growth(algorithm, engine_request(engine), options)


growth_options = option_group(
    "growth",
    _growth,
    click.option(
        "-a",
        "--algorithm",
        type=click.Choice(sorted(ALGORITHM_NAMES)),
        default="id3",
        show_default=True,
        help="Which algorithm's rules to follow (any case; C4.5 and J48 also name c45).",
    ),
    click.option(
        "-c",
        "--criterion",
        type=click.Choice(CRITERION_NAMES),
        help="Split criterion (default: the algorithm's: id3 gain, c45 gain-ratio, cart gini). "
        "gain-ratio applies Quinlan's rule: only attributes with at least average gain "
        "compete; entropy is gain; cart is Zaki's CART measure (cart only).",
    ),
    click.option(
        "--thresholds",
        type=click.Choice(THRESHOLDS),
        help="Numeric splits A <= t: t is the largest training value not above the cut (data, "
        "C4.5's default, as J48 prints it) or the midpoint between the two values (Mitchell, "
        "Zaki). Lets ID3 split numeric attributes too.",
    ),
    click.option(
        "--ties",
        type=click.Choice(TIES),
        help="CART only: attributes tied for the best split go to the first in scikit-learn's "
        "random visiting order for --seed (the default, so trees equal scikit-learn's "
        "with random_state=SEED, on tables without missing values: scikit-learn sends a "
        "missing value its own way) or to the first column (the default with --max-bins, "
        "which scikit-learn does not have, and with --engine dask).",
    ),
    click.option(
        "--max-bins",
        type=int,
        metavar="N",
        help="Approximate mode for very large tables: each numeric attribute is cut only between N "
        "quantile bins (thresholds are bin maxima), not between every pair of distinct values. "
        "--engine dask: 256 unless given.",
    ),
    engine_option,
)

stopping_options = option_group(
    "stopping",
    lambda **values: values,
    click.option("--max-depth", type=int, metavar="N", help="Make a leaf at depth N (the root is depth 0)."),
    click.option(
        "--min-split", type=float, metavar="N", help="Split a node only if it holds at least N cases.  [default: 2]"
    ),
    click.option(
        "-m",
        "--min-leaf",
        type=float,
        metavar="M",
        help="A split needs at least two branches with M cases (C4.5's -m; c45 default 2).",
    ),
    click.option(
        "--max-leaves",
        type=int,
        metavar="N",
        help="Grow best-first (the largest weight x decrease first: CART's criterion, as scikit-learn's "
        "max_leaf_nodes; information gain for id3 and c45) and stop at N leaves.",
    ),
    click.option(
        "--chi2-alpha",
        type=float,
        metavar="ALPHA",
        help="Chi-square pre-pruning: make a split only if its association with the class is "
        "significant at level ALPHA (e.g. 0.05).",
    ),
    click.option(
        "--min-gain",
        type=float,
        metavar="G",
        help="Split only if the criterion improves by more than G (bits for gain).  [default: 0]",
    ),
    click.option(
        "--purity",
        type=float,
        metavar="P",
        help="Make a leaf once the majority class reaches fraction P of a node (e.g. 0.9).  [default: 1]",
    ),
    click.option(
        "--zero-gain",
        type=click.Choice(ZERO_GAIN),
        help="ID3 only: at an impure node where no attribute gains anything, make a leaf (Weka's Id3) "
        "or split on the first best attribute anyway (split: ID3 as in Mitchell's Table 3.1, which "
        "splits while attributes remain; XOR becomes a 4-leaf tree). Not with --min-gain.  [default: leaf]",
    ),
)

missing_option = click.option(
    "--missing",
    type=click.Choice(MISSING_POLICIES),
    help="Missing values: fractional (C4.5's default: cases go down every branch with "
    "proportional weight), majority / class-majority (at each node, fill in the most common "
    "value among that node's cases, overall or of the case's class; Mitchell 3.7.4), "
    "root-majority / root-class-majority (fill in once from the whole table, as Weka's "
    "ReplaceMissingValues filter, but the mode for numbers too), reject (ID3's default). "
    "cart: majority (its default) sends the case down the heavier branch; no other fill-in.",
)


def pessimistic_list(cf_help: str, bound_help: str, raise_help: str | None = None) -> list:
    """The options of pessimistic pruning: --cf, --no-raise (with ``raise_help``), --error-bound."""
    options = [click.option("--cf", type=float, default=0.25, show_default=True, metavar="CF", help=cf_help)]
    if raise_help:
        options.append(click.option("--no-raise", is_flag=True, help=raise_help))
    options.append(
        click.option("--error-bound", type=click.Choice(BOUNDS), default="j48", show_default=True, help=bound_help)
    )
    return options


def pessimistic_params(cf: float, error_bound: str, no_raise: bool = False, **more) -> PruneParams:
    from dtcli.induction.params import PruneParams

    return PruneParams(cf=cf, raising=not no_raise, error_bound=error_bound, **more)


def pessimistic_options(cf_help: str, bound_help: str, raise_help: str | None = None):
    """--cf, --error-bound and (with ``raise_help``) --no-raise, as a PruneParams ``pessimistic``."""
    return option_group("pessimistic", pessimistic_params, *pessimistic_list(cf_help, bound_help, raise_help))


def cost_complexity(ccp_alpha: float | None, cv_folds: int | None, one_se: bool, seed: int) -> CostComplexity:
    """The CostComplexity of --ccp-alpha, --cv-folds, --one-se and --seed."""
    from dtcli.induction.params import CostComplexity

    return CostComplexity(ccp_alpha, cv_folds, one_se, seed)


def cost_complexity_options(alpha_help: str, folds_help: str, seed_help: str):
    """--ccp-alpha, --cv-folds, --one-se and --seed, as a CostComplexity ``ccp``."""
    return option_group(
        "ccp",
        cost_complexity,
        click.option("--ccp-alpha", type=float, metavar="A", help=alpha_help),
        click.option("--cv-folds", type=int, metavar="K", help=folds_help),
        click.option("--one-se", is_flag=True, help="With --cv-folds: the smallest tree within one SE of the best."),
        click.option("--seed", type=int, default=0, show_default=True, help=seed_help),
    )


class ByteSize(click.ParamType):
    """A size in bytes: digits with an optional binary suffix (K, M, G, T; KiB, MB, ... mean the same)."""

    name = "size"
    UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        match = re.fullmatch(r"\s*(\d+)\s*([kmgt]?)(?:i?b)?\s*", str(value), re.IGNORECASE)
        if match is None:
            self.fail(f"{value!r} is not a size (give bytes, or a number with K, M, G or T, e.g. 512M, 2G)", param, ctx)
        return int(match.group(1)) * self.UNITS[match.group(2).upper()]


def limit_list() -> list:
    """--max-bytes and --max-rows: how much of each input is read before giving up."""
    return [
        click.option(
            "--max-bytes",
            type=ByteSize(),
            default=DEFAULT_MAX_BYTES,
            metavar="SIZE",
            help="Refuse an input (DATA after decompression, MODEL) larger than SIZE bytes (suffixes K, M, "
            "G, T; 0: no limit), with an error as soon as it is passed.  [default: 1G]",
        ),
        click.option(
            "--max-rows",
            type=int,
            default=DEFAULT_MAX_ROWS,
            metavar="N",
            help="Refuse DATA with more than N rows (0: no limit).  [default: 50,000,000]",
        ),
    ]


SEPARATOR_NAMES = {"tab": "\t", "\\t": "\t", "semicolon": ";", "comma": ",", "pipe": "|"}


def dialect_list() -> list:
    """--sep and --decimal: how a CSV DATA file is written, when detection is not to decide."""
    return [
        click.option(
            "--sep",
            metavar="CHAR",
            help="Column separator of CSV DATA: one character, or tab (default: detected: an Excel 'sep=' "
            "first line, else the one of , ; tab | that splits every line alike).",
        ),
        click.option(
            "--decimal",
            type=click.Choice([".", ","]),
            help="Decimal mark of numbers in CSV DATA (default: detected: , when a file not separated by commas "
            "writes its numbers so, as 5,1).",
        ),
    ]


def separator(sep: str | None) -> str | None:
    """The character --sep names (ParameterError for anything but one character other than a quote or line end)."""
    if sep is None:
        return None
    char = SEPARATOR_NAMES.get(sep.lower(), sep)
    if len(char) != 1 or char in '"\r\n':
        raise ParameterError(f"--sep {sep!r}: give one character (such as ; or |), or tab; not a quote or line end")
    return char


def limits(max_bytes: int, max_rows: int, sep: str | None = None, decimal: str | None = None) -> Limits:
    """The Limits of --max-bytes and --max-rows, with --sep and --decimal (ParameterError for a negative count)."""
    if max_rows < 0:
        raise ParameterError("--max-rows must be 0 or more (0: no limit)")
    sep = separator(sep)
    if sep is not None and sep == decimal:
        raise ParameterError(f"--sep and --decimal are both {sep!r}; the separator and the decimal mark must differ")
    return Limits(max_bytes, max_rows, sep, decimal)


limit_options = option_group("limits", limits, *limit_list())
# commands that read DATA: the limits and how a CSV file is written
data_limit_options = option_group("limits", limits, *limit_list(), *dialect_list())


def format_option(choices, default: str, help_text: str):
    """-f/--format (its value is ``fmt``)."""
    return click.option(
        "-f", "--format", "fmt", type=click.Choice(choices), default=default, show_default=True, help=help_text
    )


TREE_FORMATS = ("rich", "text", "json")

metrics_json_option = click.option(
    "--metrics-json",
    metavar="FILE",
    help="Also write the evaluation (as 'dtree evaluate -f json': accuracy, kappa, per-class figures, the "
    "confusion matrix; regression: RMSE, MAE, R^2) as a "
    "'dtree-evaluation' JSON document (dtree-formats(5)) to FILE; - for standard output when the "
    "other output goes to a file (-o FILE).",
)
