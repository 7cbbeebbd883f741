"""Names of columns and values as asked for: when two are the same name, and what a near miss is.

The rule, everywhere a column, attribute or value is named (--target,
--ignore, --nominal, --id, --where, --attribute, a cost file, a model's
columns in new data): two names are the same name when they are equal
after Unicode normalisation to NFC (``Café`` written with U+00E9, or with
``e`` and the combining U+0301 as macOS file names and some tools write
it). Nothing else is folded: case, spaces, invisible characters and
look-alike letters of other scripts make another name. So a file (or a
model) may not hold two column names equal under NFC and written
differently (``clash``), and a name asked for and not found is compared
with the names there are (``near``): a name that differs from it only by
normalisation, case, leading or trailing spaces, invisible characters
(``INVISIBLE``), no-break spaces (``SPACES``) or Cyrillic and Greek letters
that look Latin (``LOOK_ALIKE``, a short hand-made table) is named in the
error with the code points that differ.
"""

from __future__ import annotations

import unicodedata

INVISIBLE = {  # characters that show as nothing
    "\u00ad": "soft hyphen",
    "\u200b": "zero width space",
    "\u200c": "zero width non-joiner",
    "\u200d": "zero width joiner",
    "\u200e": "left-to-right mark",
    "\u200f": "right-to-left mark",
    "\u2060": "word joiner",
    "\ufeff": "byte-order mark",
}
SPACES = frozenset("\u00a0\u2007\u202f\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u3000\t")
# Cyrillic and Greek letters drawn as a Latin one (capital and small), by the Latin letter they pass for
LOOK_ALIKE = {
    "A": "\u0410\u0391",
    "B": "\u0412\u0392",
    "C": "\u0421\u03f9",
    "E": "\u0415\u0395",
    "H": "\u041d\u0397",
    "I": "\u0406\u0399",
    "J": "\u0408",
    "K": "\u041a\u039a",
    "M": "\u041c\u039c",
    "N": "\u039d",
    "O": "\u041e\u039f",
    "P": "\u0420\u03a1",
    "S": "\u0405",
    "T": "\u0422\u03a4",
    "X": "\u0425\u03a7",
    "Y": "\u04ae\u03a5",
    "Z": "\u0396",
    "a": "\u0430",
    "c": "\u0441\u03f2",
    "e": "\u0435",
    "i": "\u0456",
    "j": "\u0458",
    "o": "\u043e\u03bf",
    "p": "\u0440\u03c1",
    "s": "\u0455",
    "x": "\u0445\u03c7",
    "y": "\u0443",
}
_LATIN = {other: latin for latin, others in LOOK_ALIKE.items() for other in others}


def name_key(name):
    """What names are compared by: ``name`` in NFC (anything but a str as it is)."""
    return unicodedata.normalize("NFC", name) if isinstance(name, str) and not name.isascii() else name


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are the same name (equal under NFC)."""
    return a == b or unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


def find(name: str, names) -> str | None:
    """The one of ``names`` that is ``name`` (exactly, else equal under NFC), or None."""
    if name in names:
        return name
    if name.isascii():  # (NFC leaves ASCII as it is: only a name that is not ASCII can be another spelling)
        return next((n for n in names if not n.isascii() and same_name(n, name)), None)
    key = unicodedata.normalize("NFC", name)
    return next((n for n in names if unicodedata.normalize("NFC", n) == key), None)


def finder(names):
    """``find`` over ``names`` for many names: a function of a name, by dictionary (not a scan a name)."""
    exact = set(names)
    keys: dict = {}
    for name in names:
        keys.setdefault(name_key(name), name)
    return lambda name: name if name in exact else keys.get(name_key(name))


def aliases(wanted, names) -> set:
    """``wanted`` with the names of ``names`` that are one of them (a reader's set of columns to read
    as text, say, matched to a header written in another normal form)."""
    wanted = set(wanted)
    if all(n.isascii() for n in names) and all(isinstance(w, str) and w.isascii() for w in wanted):
        return wanted
    keys = {unicodedata.normalize("NFC", w) for w in wanted if isinstance(w, str)}
    return wanted | {n for n in names if unicodedata.normalize("NFC", n) in keys}


def clash(names) -> tuple[int, int] | None:
    """Positions (from 0) of the first two of ``names`` that are the same name written differently
    (equal under NFC, not equal), or None. Names that are equal are the reader's own check."""
    if all(n.isascii() for n in names):
        return None
    seen: dict[str, int] = {}
    for position, name in enumerate(names):
        key = unicodedata.normalize("NFC", name)
        if key in seen and names[seen[key]] != name:
            return seen[key], position
        seen.setdefault(key, position)
    return None


def clash_text(first: str, second: str) -> str:
    """Why two names equal under NFC are one name: ``'Café' and 'Café' are one name written two ways
    (Unicode normalisation: U+0065 U+0301 and U+00E9)``."""
    return (
        f"{first!r} and {second!r} are one name written two ways "
        f"(Unicode normalisation: {_difference(first, second, ' and ')})"
    )


def _skeleton(name: str) -> str:
    """``name`` without what the eye does not see: NFC, no invisible characters, every space an
    ordinary one, look-alike letters as the Latin ones, case folded, no surrounding spaces."""
    return _visible(unicodedata.normalize("NFC", name)).casefold().strip()


def near(name: str, names) -> str | None:
    """A clause naming the first of ``names`` that differs from ``name`` only by what the eye may miss
    (``column`` is the caller's word for them), with the code points that differ, or None:
    ``'Outlook' differs only by a look-alike letter (U+041E where 'Outlook' has U+004F)``."""
    key = _skeleton(name)
    other = next((n for n in names if n != name and _skeleton(n) == key), None)
    if other is None:
        return None
    return f"{other!r} differs only by {_kinds(other, name)} ({_difference(other, name, f' where {name!r} has ')})"


def _kinds(other: str, name: str) -> str:
    """What ``other`` and ``name`` (equal skeletons, ``_skeleton``) differ by, in words."""
    tests = (
        (lambda c: c in INVISIBLE, "an invisible character"),
        (lambda c: c in SPACES, "a no-break or other special space"),
        (lambda c: c in _LATIN, "a look-alike letter"),
    )
    kinds: list[str] = []
    for mine, theirs in _pieces(other, name):
        found = [kind for test, kind in tests if any(test(c) for c in mine + theirs)]
        plain = [_visible(mine), _visible(theirs)]  # (what is left: case, spaces, normal form)
        if plain[0] != plain[1]:
            composed = [unicodedata.normalize("NFC", text) for text in plain]
            if composed != plain and (composed[0] == composed[1] or composed[0].casefold() == composed[1].casefold()):
                found.append("Unicode normalisation")
            if composed[0].replace(" ", "") != composed[1].replace(" ", ""):
                found.append("case")
            if composed[0].count(" ") != composed[1].count(" "):
                found.append("leading or trailing spaces" if _at_end(other, name, mine, theirs) else "spaces")
        kinds.extend(kind for kind in found if kind not in kinds)
    return " and ".join(kinds)


def _visible(text: str) -> str:
    """``text`` without invisible characters, special spaces as spaces, look-alike letters as Latin."""
    return "".join(" " if c in SPACES else _LATIN.get(c, c) for c in text if c not in INVISIBLE)


def _at_end(other: str, name: str, mine: str, theirs: str) -> bool:
    """Whether a stretch of spaces is where one name starts or ends."""
    spaces = mine or theirs
    longer = other if mine else name
    return longer.startswith(spaces) or longer.endswith(spaces)


def _pieces(a: str, b: str) -> list[tuple[str, str]]:
    """The stretches where ``a`` and ``b`` differ, as (a's, b's) text."""
    from difflib import SequenceMatcher  # (here: only an error message needs it)

    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return [(a[i1:i2], b[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _difference(a: str, b: str, joint: str) -> str:
    """The code points where ``a`` and ``b`` differ: ``U+041E{joint}U+004F``, stretches separated by ``;``."""
    return "; ".join(f"{_points(mine)}{joint}{_points(theirs)}" for mine, theirs in _pieces(a, b))


def _points(text: str) -> str:
    return " ".join(f"U+{ord(c):04X}" for c in text) if text else "nothing"


def missing_text(name: str, names, word: str = "column", listing: str | None = None) -> str:
    """What to say of ``name``, not among ``names``: the near miss (``near``) as ``{word} 'X' differs
    only by ...``, else the names, after ``listing`` (default ``{word}s are``)."""
    close = near(name, names)
    if close is not None:
        return f"{word} {close}"
    return f"{listing or word + 's are'}: {', '.join(map(str, names))}"


def near_clause(name: str, names, word: str = "column") -> str:
    """``; column 'X' differs only by ...`` for a near miss of ``name`` among ``names`` (``near``), else ""."""
    close = near(name, names)
    return "" if close is None else f"; {word} {close}"
