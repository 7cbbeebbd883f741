"""The feature importance table (``dtree show --importance``, ``train --importance``): text, JSON or CSV.

The JSON form (``"format": "dtree-importance"``, schema_version 1) is documented in dtree-formats(5).
"""

from __future__ import annotations

import io

FORMAT = "dtree-importance"
SCHEMA_VERSION = 1


def importance_output(tree, fmt: str, model: str | None = None) -> str:
    """The importances of ``tree`` (``induction.importance.ranked``) as ``fmt``: json, csv, or a text table."""
    from dtcli.induction.importance import measure, ranked

    rows = ranked(tree)
    if fmt == "json":
        import json

        doc = {"format": FORMAT, "schema_version": SCHEMA_VERSION}
        if model is not None:
            doc["model"] = model
        doc.update(algorithm=tree.algorithm, measure=measure(tree), target=tree.schema.target.name)
        doc["importances"] = [{"attribute": name, "importance": value} for name, value in rows]
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        import csv

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("attribute", "importance"))
        writer.writerows((name, repr(value)) for name, value in rows)
        return out.getvalue()
    from dtcli.render.printable import shown

    names = [shown(name) for name, _ in rows]
    width = max([len("Attribute")] + [len(n) for n in names])
    lines = [f"{'Attribute':<{width}}  Importance"]
    lines += [f"{name:<{width}}  {value:10.4f}" for name, (_, value) in zip(names, rows)]
    if any(value > 0 for _, value in rows):
        lines.append(f"(each attribute's weighted decrease of {measure(tree)} over its splits; they sum to 1)")
    else:
        lines.append("(the tree is a single leaf: no attribute splits it)")
    return "\n".join(lines) + "\n"
