"""The JSON document a run writes to standard error under ``-f json`` (a trace, a cross-validation table).

Under ``-f json`` standard error carries one JSON document and nothing else: ``hold`` is called
before any work, so warnings are kept (they go into the document's ``warnings`` list) and summary
lines are left out; ``write_document`` writes the document. A run that fails writes the warnings
kept, then its ``Error:`` line (exit status 1).
"""

from __future__ import annotations

import json


def hold(active: bool) -> None:
    """Keep warnings and leave out summary lines from now on, when ``active``."""
    if active:
        from dtcli.render.console import hold_messages

        hold_messages()


def write_document(text: str, path: str | None = None) -> None:
    """The JSON document ``text`` to standard error with ``warnings`` (those kept) added last, or
    to the file ``path`` as it is (atomically)."""
    if path:
        from dtcli.io.write import atomic

        with atomic(path) as handle:
            handle.write(text)
        return
    from dtcli.render.console import console, take_warnings

    doc = json.loads(text)
    doc["warnings"] = take_warnings()
    console.message(json.dumps(doc, indent=2))
