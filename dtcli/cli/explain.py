"""``dtree gain``'s --explain options: the worked computation, its format, attributes and digits."""

from __future__ import annotations

from typing import NamedTuple

import click

from dtcli.cli.extensions import extension
from dtcli.cli.options import option_group
from dtcli.errors import ParameterError

EXPLAIN_FORMATS = ("text", "markdown", "latex")
MAX_DIGITS = 12


class Explain(NamedTuple):
    """--explain, --explain-format, --attribute and --digits."""

    on: bool
    fmt: str
    attributes: tuple
    digits: int

    def left_out(self, table, fixed: tuple) -> tuple:
        """The attributes --attribute leaves out (none without it); an unknown name is an error."""
        from dtcli.explain.checks import left_out

        return left_out(table, self.attributes, fixed)

    def check(self, fmt: str) -> None:
        if fmt != "table":
            raise ParameterError(f"--explain writes a derivation, not {fmt}; leave out --format {fmt}")

    def write(self, table, rows, report, conditions, costs) -> str:
        """The derivation of a multiway report as text, Markdown or LaTeX."""
        from dtcli.explain.worked import explain_gain

        where, subscript = _named(conditions)
        order = _order(report.classes)
        return self.written(explain_gain(table, rows, report, self.digits, where, subscript, order, costs))

    def write_binary(self, report, conditions) -> str:
        """The derivation of CART's binary candidates."""
        from dtcli.explain.worked_binary import explain_binary

        where, subscript = _named(conditions)
        return self.written(explain_binary(report, self.digits, where, subscript, _order(report.classes)))

    def written(self, derivation) -> str:
        from dtcli.render.explain import markdown_document, text_document
        from dtcli.render.explain_latex import latex_document

        write = {"text": text_document, "markdown": markdown_document, "latex": latex_document}[self.fmt]
        return write(derivation)


def _named(conditions) -> tuple[tuple, tuple]:
    """The --where conditions as text, and the values of the = ones (the set's subscript: S_Sunny)."""
    return tuple(str(c) for c in conditions), tuple(c.value for c in conditions if c.op == "=")


def _order(classes) -> tuple | None:
    """Class indices in the order terms are written: Mitchell's positive class first."""
    from dtcli.render.counts import signs

    pair = signs(classes)
    return None if pair is None else pair + tuple(c for c in range(len(classes)) if c not in pair)


BY_EXTENSION = {".md": "markdown", ".markdown": "markdown", ".tex": "latex"}  # -o FILE's derivation formats


def _build(explain, explain_format, attributes, digits) -> Explain:
    if not 0 <= digits <= MAX_DIGITS:
        raise ParameterError(f"--digits {digits}: give a number of decimals from 0 to {MAX_DIGITS}")
    given = _given("explain_format")
    context = click.get_current_context(silent=True)
    output = context.params.get("output") if context is not None else None
    wanted = BY_EXTENSION.get(extension(output))
    if wanted is not None:  # -o x.md, -o x.tex: the derivation in that format (gain writes no other such file)
        if given and explain_format != wanted:
            raise ParameterError(
                f"--explain-format {explain_format} contradicts -o {output} ({wanted}): give --explain-format "
                f"{wanted}, or a file name that fits {explain_format}"
            )
        return Explain(True, wanted, tuple(attributes), digits)
    if not (explain or given) and _given("digits"):
        raise ParameterError(
            f"--digits {digits} sets the decimals of --explain's derivation: add --explain, or "
            "leave out --digits (the table prints 3 decimals; -f json gives full precision)"
        )
    return Explain(explain or given, explain_format, tuple(attributes), digits)


def _given(name: str) -> bool:
    """True when the user gave the option ``name`` (--explain-format implies --explain)."""
    from click.core import ParameterSource

    context = click.get_current_context(silent=True)
    return context is not None and context.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


explain_options = option_group(
    "explain",
    _build,
    click.option(
        "--explain",
        is_flag=True,
        help="Print the worked computation instead of the table: counts, entropies, gains, split "
        "information, gain ratio and Gini written out as the textbooks lay them out.",
    ),
    click.option(
        "--explain-format",
        type=click.Choice(EXPLAIN_FORMATS),
        default="text",
        show_default=True,
        help="The --explain derivation as plain text, Markdown, or a LaTeX fragment (amsmath align*); "
        "implies --explain.",
    ),
    click.option(
        "--attribute",
        "attributes",
        metavar="A",
        multiple=True,
        help="Only these attributes (repeatable).",
    ),
    click.option(
        "--digits",
        type=int,
        default=3,
        show_default=True,
        metavar="N",
        help="With --explain: decimals shown (figures are rounded at the end only).",
    ),
)
