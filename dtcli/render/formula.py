"""Terms of a worked computation written out: as plain text (``(8/14)(0.811)``) or LaTeX math (``\\frac{8}{14}``).

The terms come from ``explain/terms.py``. Plain text follows
Mitchell's notation: ``-(9/14) log2(9/14)``, ``0.940 - (8/14)(0.811)``,
``1 - (9/14)^2``. LaTeX gives ``-\\frac{9}{14} \\log_2 \\frac{9}{14}``, with
names in ``\\text{...}``, escaped. Figures print with ``digits`` decimals.
"""

from __future__ import annotations

from dtcli.explain.terms import (
    Abs,
    Call,
    Const,
    Frac,
    Log2,
    Name,
    Paren,
    Power,
    Product,
    Ratio,
    SetName,
    Sum,
    Value,
    fold,
)
from dtcli.render.printable import shown


def fixed(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals; never ``-0.000``."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def constant(value: float) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def _frac_text(node: Frac, digits: int) -> str:
    if node.exact:
        return f"{constant(node.num)}/{constant(node.den)}"
    return fixed(node.num / node.den if node.den else 0.0, digits)


def _signed(node: Sum, parts: list[str]) -> str:
    out = ""
    for k, ((sign, _), part) in enumerate(zip(node.terms, parts)):
        if k == 0:
            out = ("-" if sign < 0 else "") + part
        else:
            out += (" - " if sign < 0 else " + ") + part
    return out


def text(expr, digits: int) -> str:
    """``expr`` in Mitchell's plain notation."""

    def combine(node, parts):
        if isinstance(node, Const):
            return constant(node.value)
        if isinstance(node, Frac):
            return _frac_text(node, digits)
        if isinstance(node, Value):
            return fixed(node.value, digits)
        if isinstance(node, Log2):
            return f"log2({parts[0]})"
        if isinstance(node, Sum):
            return _signed(node, parts)
        if isinstance(node, Product):
            return _text_product(node, parts)
        if isinstance(node, Power):
            base = f"({parts[0]})" if isinstance(node.base, (Frac, Sum, Product)) else parts[0]
            return f"{base}^{parts[1]}"
        if isinstance(node, Ratio):
            return f"{_wrap(node.num, parts[0])} / {_wrap(node.den, parts[1])}"
        if isinstance(node, Paren):
            return f"({parts[0]})"
        if isinstance(node, Abs):
            return f"|{parts[0]}|"
        return _name_text(node, parts)

    return fold(expr, combine)


def _wrap(node, part: str) -> str:
    return f"({part})" if isinstance(node, (Sum, Product)) else part


def _text_product(node: Product, parts: list[str]) -> str:
    pieces = []
    for factor, part in zip(node.factors, parts):
        pieces.append(f"({part})" if isinstance(factor, (Frac, Value)) else part)
    out = pieces[0]
    for piece in pieces[1:]:
        out += piece if piece.startswith("(") and out.endswith(")") else " " + piece
    return out


def _name_text(node, parts: list[str]) -> str:
    if isinstance(node, SetName):
        return "S" + ("_" + ",".join(shown(p) for p in node.parts) if node.parts else "")
    if isinstance(node, Name):
        return shown(node.text)
    if isinstance(node, Call):
        return f"{node.function}({', '.join(parts)})"
    raise TypeError(f"cannot write {type(node).__name__}")


LATEX_SPECIALS = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
}


def latex_escape(value: str) -> str:
    """``value`` as LaTeX text: the ten special characters (and ``< > |``) escaped."""
    return "".join(LATEX_SPECIALS.get(char, char) for char in shown(value))


LATEX_FUNCTIONS = {
    "Gain/Cost": r"\mathrm{Gain}/\mathrm{Cost}",
    "Gain^2/Cost": r"\mathrm{Gain}^2/\mathrm{Cost}",
}


def latex(expr, digits: int) -> str:
    """``expr`` as LaTeX math (for ``align*``)."""

    def combine(node, parts):
        if isinstance(node, Const):
            return constant(node.value)
        if isinstance(node, Frac):
            return rf"\frac{{{constant(node.num)}}}{{{constant(node.den)}}}" if node.exact else _frac_text(node, digits)
        if isinstance(node, Value):
            return fixed(node.value, digits)
        if isinstance(node, Log2):
            return rf"\log_2 {parts[0]}"
        if isinstance(node, Sum):
            return _signed(node, parts)
        if isinstance(node, Product):
            return _latex_product(node, parts)
        if isinstance(node, Power):
            base = rf"\left({parts[0]}\right)" if isinstance(node.base, (Frac, Sum, Product)) else parts[0]
            return f"{base}^{{{parts[1]}}}"
        if isinstance(node, Ratio):
            return rf"\frac{{{parts[0]}}}{{{parts[1]}}}"
        if isinstance(node, Paren):
            return rf"\left({parts[0]}\right)"
        if isinstance(node, Abs):
            return rf"\left|{parts[0]}\right|"
        return _name_latex(node, parts)

    return fold(expr, combine)


def _latex_product(node: Product, parts: list[str]) -> str:
    out = parts[0]
    for factor, part in zip(node.factors[1:], parts[1:]):
        out += (" " if isinstance(factor, (Log2, Paren)) else r" \cdot ") + part
    return out


def _name_latex(node, parts: list[str]) -> str:
    if isinstance(node, SetName):
        if not node.parts:
            return "S"
        return "S_{" + ",".join(rf"\text{{{latex_escape(p)}}}" for p in node.parts) + "}"
    if isinstance(node, Name):
        return rf"\text{{{latex_escape(node.text)}}}"
    if isinstance(node, Call):
        function = LATEX_FUNCTIONS.get(node.function, rf"\mathrm{{{node.function}}}")
        return f"{function}({', '.join(parts)})"
    raise TypeError(f"cannot write {type(node).__name__}")
