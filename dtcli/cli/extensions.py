"""``-o FILE``'s extension chooses the format: each command's table of extensions, and the check of -f against it.

``dtree show tree.json -o tree.svg`` writes SVG without ``-f svg``; an explicit
``-f`` that contradicts a known extension (``-f dot -o tree.svg``), or an
extension the command cannot write (``show -o tree.py``), is refused with one
line. An extension no command writes (``.out``, none) leaves the default format.
Also: MODEL and DATA given the other way round (``predict data.csv model.json``)
are recognised by their extensions (``refuse_swapped``).
"""

from __future__ import annotations

import os
import shlex

from dtcli.errors import ParameterError

# For each command with -o and -f: extension -> the formats that write it (without -f: the command's
# default if it is one of them, else the first).
WRITES = {
    "show": {
        ".svg": ("svg",),
        ".dot": ("dot",),
        ".gv": ("dot",),
        ".mmd": ("mermaid",),
        ".mermaid": ("mermaid",),
        ".json": ("json",),
        ".txt": ("text", "rich"),
        ".csv": ("csv",),
    },
    "rules": {
        ".txt": ("text",),
        ".json": ("json",),
        ".csv": ("csv",),
        ".md": ("markdown",),
        ".markdown": ("markdown",),
        ".tex": ("latex",),
        ".py": ("python",),
        ".sql": ("sql",),
    },
    "evaluate": {".txt": ("text",), ".json": ("json",), ".csv": ("csv",)},
    "predict": {".csv": ("csv",), ".json": ("json",)},
    "diff": {".txt": ("text",), ".json": ("json",)},
    "gain": {
        ".txt": ("table",),
        ".json": ("json",),
        ".csv": ("csv",),
        ".md": ("table",),
        ".markdown": ("table",),
        ".tex": ("table",),
    },  # (.md, .tex: the --explain derivation, cli/explain.py)
}
# Commands whose -o is the model, always JSON (their -f says how to print the tree beside it).
MODEL_OUTPUT = ("train", "prune")
# What each known extension holds, for the messages.
KINDS = {
    ".svg": "an SVG picture",
    ".dot": "Graphviz DOT source",
    ".gv": "Graphviz DOT source",
    ".mmd": "a mermaid flowchart",
    ".mermaid": "a mermaid flowchart",
    ".json": "JSON",
    ".txt": "text",
    ".csv": "CSV",
    ".md": "Markdown",
    ".markdown": "Markdown",
    ".tex": "LaTeX",
    ".py": "Python",
    ".sql": "SQL",
    ".parquet": "Parquet",
    ".png": "a PNG image",
    ".pdf": "a PDF document",
}


def extension(output: str | None) -> str:
    """The lower-case extension of ``output`` ('' for none, for standard output, or for a directory name)."""
    if not output or output == "-":
        return ""
    return os.path.splitext(os.path.basename(output))[1].lower()


def choose_format(command: str, output: str | None, fmt: str | None, given: bool) -> str | None:
    """The format to write: ``fmt`` as given (``given``: on the command line), else the one ``output``'s
    extension names, else ``fmt`` (the default). ParameterError for a contradiction or an extension
    the command cannot write."""
    ext = extension(output)
    if not ext or ext not in KINDS:
        return fmt
    if command in MODEL_OUTPUT:
        if ext not in (".json", ".txt"):
            picture = shlex.quote(os.path.basename(output))
            raise ParameterError(
                f"-o {output}: dtree {command} -o writes the model, as JSON, not {KINDS[ext]}; give -o MODEL.json "
                f"(and draw or print the tree from it with: dtree show MODEL.json -o {picture})"
            )
        return fmt
    table = WRITES.get(command)
    if table is None or fmt is None:
        return fmt
    if ext not in table and ext == ".txt":  # text of some kind: the default
        return fmt
    if ext not in table:
        known = ", ".join(sorted(table))
        raise ParameterError(f"-o {output}: dtree {command} cannot write {KINDS[ext]}; it writes {known} files")
    formats = table[ext]
    if not given:  # the default when it writes this extension (show's rich tree to .txt), else the extension's
        return fmt if fmt in formats else formats[0]
    if fmt not in formats and ext != ".txt":  # (.txt names no format in particular: -f decides)
        raise ParameterError(f"-f {fmt} contradicts -o {output} ({KINDS[ext]}, which -f {formats[0]} writes): "
                             f"give -f {formats[0]}, or a file name that fits -f {fmt}")  # fmt: skip
    return fmt


DATA_EXTENSIONS = (".csv", ".tsv", ".arff", ".parquet", ".csv.gz", ".arff.gz", ".tsv.gz")


def refuse_swapped(command: str, model: str, data: str) -> None:
    """ParameterError when MODEL names a data file and DATA a .json file: the two are swapped."""
    if model.lower().endswith(DATA_EXTENSIONS) and data.lower().endswith(".json"):
        raise ParameterError(f"{model}: is DATA, and {data} the model: MODEL comes first; did you mean "
                             f"dtree {command} {shlex.quote(data)} {shlex.quote(model)}")  # fmt: skip
