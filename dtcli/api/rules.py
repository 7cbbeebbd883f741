"""``Rules``: a tree's IF-THEN rules as ``Model.rules`` returns them, in each of ``dtree rules``' formats."""

from __future__ import annotations


class Rules:
    """The rules of a tree (the core's ``RuleSet`` is ``ruleset``), one per leaf, in the tree's order.

    ``str(rules)`` is ``dtree rules``' text; ``to(fmt)`` any of its formats (text, json, csv, markdown,
    latex, python, sql).
    """

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def __len__(self) -> int:
        return len(self.ruleset.rules)

    def to(self, fmt: str = "text") -> str:
        """The rules as ``dtree rules -f FMT`` writes them; ParameterError for an unknown format."""
        from dtcli.errors import ParameterError
        from dtcli.render.rules import FORMATS, render

        if fmt not in FORMATS:
            raise ParameterError(f"unknown rules format {fmt!r}; choose from {', '.join(FORMATS)}")
        return render(self.ruleset, fmt)

    def __str__(self) -> str:
        return self.to("text")

    def __repr__(self) -> str:
        return f"<dtcli.Rules: {len(self)} rules and a default>"
