"""The record of one pessimistic pruning decision (``Step``), shared by the reference and the compiled pruning.

A step names its node by the branches from the root (``/Outlook = Sunny/Humidity = High``).
The pruners keep that path as a chain, ``(parent chain, branch)`` with ``None`` for the
root, one tuple a node, and the text is made when it is read: a path string a node would
cost the square of the depth (a 10,000-level tree has 10,000 nodes on one path). Past
``SHOWN`` levels at each end, the middle of a path is summarised.
"""

from __future__ import annotations

from dataclasses import dataclass

SHOWN = 20  # levels shown at each end of a longer path


def unchain(chain) -> list:
    """The branches of a chain, from the root down."""
    parts = []
    while chain is not None:
        chain, part = chain
        parts.append(part)
    parts.reverse()
    return parts


def path_text(labels: list[str]) -> str:
    """``/a/b/c`` (``/`` for the root); a path of more than ``2 * SHOWN`` levels keeps the first and
    last ``SHOWN`` and says how many are left out."""
    if not labels:
        return "/"
    if len(labels) > 2 * SHOWN:
        hidden = len(labels) - 2 * SHOWN
        labels = [*labels[:SHOWN], f"... {hidden} levels ...", *labels[-SHOWN:]]
    return "".join("/" + label for label in labels)


@dataclass
class Step:
    """One pruning decision: where (a chain of branch labels, or the path text), the three
    estimates, and what was done."""

    where: object
    cases: float
    leaf: float
    tree: float
    branch: float | None
    action: str

    @property
    def path(self) -> str:
        """The node's path from the root, ``/`` for the root."""
        return self.where if isinstance(self.where, str) else path_text(unchain(self.where))
