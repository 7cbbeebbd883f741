"""Whether CART's single precision (scikit-learn's, ``ties.single``) merges different times of a date attribute."""

from __future__ import annotations

import numpy as np

from dtcli.induction.search.ties import single
from dtcli.model.table import Table


def merged_times(table: Table) -> list[str]:
    """One warning per date attribute (``Attribute.time``) of ``table`` whose different values are fewer
    once rounded to single precision, as scikit-learn rounds them and ``--ties sklearn`` does: a split
    between two of those cannot be made. Seconds since 1970 are then held to 128 seconds (in 2024),
    whole days apart exactly up to 2038; ``--ties column`` compares values in full precision."""
    warnings = []
    for attribute, column in zip(table.attributes, table.columns):
        if attribute.is_nominal or not attribute.time:
            continue
        distinct = np.unique(column[~np.isnan(column)])
        held = np.unique(single(distinct))
        if len(held) < len(distinct):
            gap = float(np.spacing(np.float32(np.abs(distinct).max())))
            warnings.append(
                f"{table.source}: column {attribute.name!r} has {len(distinct):,} different times but {len(held):,} "
                f"in single precision, in which CART compares numbers as scikit-learn does (to {gap:g} seconds "
                "here): splits between the times it merges are not made; --ties column compares them in full"
            )
    return warnings
