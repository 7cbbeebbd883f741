"""``dtree gain``'s option rules, for the command and ``dtcli.gain`` alike: criterion, --attribute, numeric targets."""

from __future__ import annotations

from dtcli.errors import ParameterError


def gain_criterion(criterion, binary: bool, costs, algorithm: str) -> str:
    """gain (multiway; c45 gain ratio) or gini (binary) by default; entropy is gain (``dtree gain``'s rule too)."""
    if criterion == "cart" and not binary:
        raise ParameterError(
            "--criterion cart (Zaki's CART measure) scores binary splits: add -a cart or --splits binary"
        )
    if criterion == "gain-ratio" and binary:
        raise ParameterError(
            "--criterion gain-ratio scores multiway splits; with binary splits use gini, entropy or cart"
        )
    if binary and costs:  # (before the default: -a cart --costs FILE is refused, not ignored)
        raise ParameterError("--costs weighs multiway splits (Mitchell 3.7.5); leave it out with binary splits")
    if criterion is None:
        return "gini" if binary else "gain-ratio" if algorithm == "c45" else "gain"
    return "gain" if criterion == "entropy" else criterion


def refuse_for_regression(attributes, costs, all_cuts) -> None:
    """A numeric target's table shows every attribute's best split: --attribute, --costs and
    --thresholds-all do not apply (``dtree gain`` and ``dtcli.gain`` refuse them alike)."""
    for given, flag in ((attributes, "--attribute"), (costs, "--costs"), (all_cuts, "--thresholds-all")):
        if given:
            raise ParameterError(
                f"{flag} works with a class target; a numeric target's table shows every attribute's best split: "
                f"leave out {flag}"
            )


def left_out(table, asked_for: tuple, fixed: tuple) -> tuple:
    """The attributes ``attribute`` leaves out of the table (none without it); an unknown name is an error."""
    if not asked_for:
        return ()
    from dtcli.model.colnames import find, near

    names = [a.name for a in table.attributes]
    found_names = []
    for name in asked_for:
        found = find(name, names)
        if found is None:
            close = near(name, names)
            raise ParameterError(
                f"--attribute {name}: {table.source} has no attribute of that name "
                + (f"(the attributes are {', '.join(names)})" if close is None else f"(attribute {close})")
            )
        if found in fixed:
            raise ParameterError(f"--attribute {name}: fixed by --where {name}=..., so not scored at this node")
        found_names.append(found)
    return tuple(n for n in names if n not in found_names)
