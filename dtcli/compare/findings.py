"""What comparing two models finds (``dtree diff``): tolerances, differences, the summary, the schema check.

The comparisons themselves are in ``compare`` (trees) and ``compare_rules`` (rule sets); both
return a :class:`Comparison`. Counts (weighted training cases, a regression node's weight and
mean) compare to ``COUNT_NOISE`` relative plus ``Tolerance.counts`` absolute: C4.5's
fractional cases make counts sums of fractions, which another row order adds up in another
order, so the last bits may differ where the trees are the same. Thresholds compare exactly
unless ``Tolerance.threshold`` says otherwise: a threshold is a data value or the midpoint of
two, the same bits whatever the row order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dtcli.model.colnames import name_key, same_name
from dtcli.model.table import Schema

COUNT_NOISE = 1e-9  # relative: float noise of adding fractional weights in another order
SHOWN = 100  # differences kept in full (with their paths); the summary counts them all


@dataclass(frozen=True)
class Tolerance:
    """How far apart numbers may be and still be the same: thresholds (absolute, default exact) and
    counts (absolute, on top of ``COUNT_NOISE`` relative)."""

    threshold: float = 0.0
    counts: float = 0.0

    def same_threshold(self, a: float, b: float) -> bool:
        return abs(a - b) <= self.threshold

    def same_count(self, a: float, b: float) -> bool:
        return abs(a - b) <= self.counts + COUNT_NOISE * max(abs(a), abs(b))


EXACT = Tolerance()


class Path:
    """Where a node is: the branch conditions from the root (``Outlook = Sunny``, ``Humidity <= 75``),
    as a chain of parts (a deep tree's paths share their beginnings) turned into a list on demand."""

    __slots__ = ("parent", "step")

    def __init__(self, parent: Path | None, step: str | None):
        self.parent, self.step = parent, step

    def __truediv__(self, step: str) -> Path:
        return Path(self, step)

    def steps(self) -> list[str]:
        out = []
        at = self
        while at is not None and at.step is not None:
            out.append(at.step)
            at = at.parent
        out.reverse()
        return out


ROOT = Path(None, None)


@dataclass
class Difference:
    """One node (or rule) whose two versions differ, or that only one model has.

    ``aspects`` name what differs: ``kind`` (leaf against split), ``test`` (another attribute or kind
    of test), ``threshold``, ``branches`` (the values the branches take), ``counts``, ``label``,
    ``value`` (regression mean), ``conditions`` and ``class`` (rules), ``only in A``, ``only in B``.
    ``a`` and ``b`` describe each model's version (``None`` where it has none): a dict of plain data.
    """

    path: Path
    aspects: tuple[str, ...]
    a: dict | None
    b: dict | None

    @classmethod
    def only(cls, path: Path, side: str, view: dict) -> Difference:
        """A node (a subtree's root) or rule that only model ``side`` ("A" or "B") has."""
        return cls(path, (f"only in {side}",), view if side == "A" else None, view if side == "B" else None)


@dataclass
class Summary:
    """Node by node (rule by rule): how many match, differ, or exist in only one model."""

    units: str  # "nodes" or "rules"
    count_a: int = 0
    count_b: int = 0
    matching: int = 0
    differing: int = 0
    only_a: int = 0
    only_b: int = 0

    def add_only(self, side: str, count: int) -> None:
        if side == "A":
            self.only_a += count
        else:
            self.only_b += count

    @property
    def same(self) -> bool:
        return self.differing == self.only_a == self.only_b == 0


@dataclass
class Comparison:
    """The result: ``equivalent`` when the schemas agree (``problems`` empty) and every node matches."""

    kind: str  # "tree" or "rules"
    summary: Summary
    differences: list[Difference] = field(default_factory=list)  # the first SHOWN, in A's order
    problems: list[str] = field(default_factory=list)  # schema differences that make the models differ
    notes: list[str] = field(default_factory=list)  # what differs without changing the models' meaning
    found: int = 0  # differences found in all (``differences`` keeps the first SHOWN)
    times: dict = field(default_factory=dict)  # a date attribute's name: its format, to print thresholds

    @property
    def equivalent(self) -> bool:
        return not self.problems and self.summary.same

    def record(self, difference: Difference) -> None:
        self.found += 1
        if len(self.differences) < SHOWN:
            self.differences.append(difference)


def compare_schemas(a: Schema, b: Schema, out: Comparison) -> None:
    """The target, task and classes must agree (class order may differ: counts are matched by class
    name); attributes that differ are noted (a tested one shows in the nodes as well)."""
    if a.is_regression != b.is_regression:
        kinds = ["a regression model" if s.is_regression else "a classification model" for s in (a, b)]
        out.problems.append(f"A is {kinds[0]} and B is {kinds[1]}")
    if not same_name(a.target.name, b.target.name):
        out.problems.append(f"the targets differ: {a.target.name!r} in A, {b.target.name!r} in B")
    if not a.is_regression and not b.is_regression:
        keys_a, keys_b = [name_key(c) for c in a.classes], [name_key(c) for c in b.classes]
        only_a = [c for c, k in zip(a.classes, keys_a) if k not in keys_b]
        only_b = [c for c, k in zip(b.classes, keys_b) if k not in keys_a]
        if only_a or only_b:
            out.problems.append(f"the classes differ: {_listed(only_a)} only in A, {_listed(only_b)} only in B")
        elif keys_a != keys_b:
            out.notes.append("the classes are listed in another order (counts are compared class by class)")
    _compare_attributes(a, b, out)


def _compare_attributes(a: Schema, b: Schema, out: Comparison) -> None:
    kinds_a = {attribute.name: attribute for attribute in a.attributes}
    kinds_b = {name_key(attribute.name): attribute for attribute in b.attributes}  # (one name in any normal form)
    keys_a = {name_key(name) for name in kinds_a}
    only_a = [name for name in kinds_a if name_key(name) not in kinds_b]
    only_b = [other.name for name, other in kinds_b.items() if name not in keys_a]
    if only_a or only_b:
        out.notes.append(f"attributes {_listed(only_a)} only in A, {_listed(only_b)} only in B")
    for name, attribute in kinds_a.items():
        other = kinds_b.get(name_key(name))
        if attribute.time and (other is None or other.time == attribute.time):
            out.times[name] = attribute.time
        if other is None:
            continue
        if attribute.kind != other.kind:
            out.notes.append(f"attribute {name!r} is {attribute.kind} in A and {other.kind} in B")
        elif attribute.time != other.time:  # the same number is another date, or no date: new data reads otherwise
            written = [f"dates written {t}" if t else "numbers" for t in (attribute.time, other.time)]
            out.problems.append(f"attribute {name!r} holds {written[0]} in A and {written[1]} in B")
        elif set(map(name_key, attribute.values)) != set(map(name_key, other.values)):
            out.notes.append(f"attribute {name!r} has other values in A than in B")


def _listed(names: list[str]) -> str:
    return ", ".join(map(repr, names)) if names else "none"
