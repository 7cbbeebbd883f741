"""Growing one tree both ways, node by node with numpy and level-wise, for the engine's tests."""

from __future__ import annotations

from trees import same

from dtcli.induction.algorithms import train
from dtcli.render.tree import text_tree


def grown_both(monkeypatch, table, algorithm: str, **options):
    """The trees ``algorithm`` grows on ``table`` with the reference and with the engine, which
    must print the same and trace the same decisions (pruning steps, chi-square tests, in order)."""
    monkeypatch.setenv("DTREE_ENGINE", "numpy")
    reference, _ = train(table, algorithm, **options)
    monkeypatch.setenv("DTREE_ENGINE", "numba")
    compiled, _ = train(table, algorithm, **options)
    assert text_tree(reference) == text_tree(compiled)
    assert same(reference.trace, compiled.trace)
    return reference, compiled
