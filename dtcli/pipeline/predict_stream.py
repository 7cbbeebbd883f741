"""``dtree predict`` to a file, its input read, predicted and written a chunk of rows at a time.

``stream`` handles the common case (CSV out, no --explain, a tree, a plain CSV file in, the rows
echoed as written): memory is bounded by a few chunks, not the file, and the next chunk is read
(pandas' C parser, without the lock) while this one is predicted and written. It gives the bytes
and messages the whole-file path gives; for anything else, and at the first problem, it raises
``NotPlain`` with nothing written (the output file is replaced only at the end), and the caller
takes the whole-file path, which reports the problem with its usual message.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from itertools import chain

import numpy as np

from dtcli.io.csv.chunks import NotPlain, csv_chunks
from dtcli.model.table import MISSING
from dtcli.pipeline.predict_table import replaced_columns
from dtcli.render.predicted import added_columns, plain, row_tails

AHEAD = 1  # chunks read ahead of the one being predicted


@dataclass
class Streamed:
    """What the report needs, as ``encode.Encoded`` holds it for the whole file (``table``: None)."""

    source: str
    has_target: bool
    unseen: dict[str, int]
    actual: np.ndarray
    labels: tuple[str, ...]
    predicted: np.ndarray
    probabilities: np.ndarray | None
    table: None = None


def streamed(tree, early: Early, output: str, proba: bool, metrics_json, quiet: bool) -> Streamed | None:
    """``stream``, or None when the whole-file path must predict (nothing done: it gives the
    message, if any)."""
    from dtcli.errors import DtreeError

    try:
        return stream(tree, early, output, proba, metrics_json, quiet)
    except (NotPlain, DtreeError):
        return None


def stream(tree, early: Early, output: str, proba: bool, metrics_json, quiet: bool) -> Streamed:
    """Predict the rows ``early`` reads into the file ``output`` (see the module's contract)."""
    from dtcli.io.write import atomic, check_output
    from dtcli.render.progress import steps

    if early.reading is None or early.schema is not tree.schema:
        raise NotPlain  # a rule set
    if check_output(output) not in ("new", "file"):
        raise NotPlain

    state = _State(tree, proba, metrics_json is not None, quiet)
    last = not metrics_json  # (else put in place with --metrics-json's document)
    with steps("predicting", None, quiet=quiet) as work, atomic(output, "wb", last=last) as handle:
        for chunk, encoded in early.reading:
            handle.write(state.block(chunk, encoded, work))
            work.advance(len(chunk.ends))
        if not state.rows or (metrics_json and not state.has_target):
            raise NotPlain  # the whole-file path warns, or refuses --metrics-json
    return state.result(early.data)


def _encoded(chunks, schema):
    """Each chunk with its rows encoded for the model (any error: NotPlain)."""
    from dtcli.errors import DataError
    from dtcli.io.encode import encode_for_schema

    for chunk in chunks:
        try:
            yield chunk, encode_for_schema(chunk.raw, schema)
        except DataError:
            raise NotPlain from None


class _State:
    """The chunks predicted so far: what the report needs, and the compiled walk of the tree."""

    def __init__(self, tree, proba: bool, keep_proba: bool, quiet: bool):
        self.tree, self.proba, self.keep_proba, self.quiet = tree, proba, keep_proba, quiet
        self.run = None
        self.rows = 0
        self.has_target = False
        self.unseen: dict[str, int] = {}
        self.labels = tuple(tree.classes)
        self.actual: list[np.ndarray] = []
        self.predicted: list[np.ndarray] = []
        self.probabilities: list[np.ndarray] = []

    def block(self, chunk, encoded, work) -> bytes:
        """The output bytes of one chunk (the header line before the first)."""
        sep = chunk.raw.sep
        head = ""
        if self.run is None:
            head = self.start(chunk, encoded, work)
        probabilities = self.run(encoded.table)
        regression = self.tree.schema.is_regression
        predicted = probabilities[:, 0] if regression else probabilities.argmax(axis=1)
        self.count(encoded, predicted, probabilities)
        if regression or self.proba:
            tails = row_tails(added_columns(self.tree, predicted, probabilities, self.proba), sep)
            return (head + "".join(chain.from_iterable(zip(chunk.lines, tails)))).encode("utf-8")
        tails = [(sep + label).encode("utf-8") for label in self.tree.classes]  # each class's cells made once
        return head.encode("utf-8") + inserted(chunk.body, chunk.ends, tails, predicted)

    def start(self, chunk, encoded, work) -> str:
        """Lay the tree out for the kernel; the output's header line."""
        from dtcli.induction.predict.apply import predictor
        from dtcli.render.progress import announce_compiling

        width = len(self.tree.classes) or 1
        names = list(added_columns(self.tree, np.zeros(0, dtype=np.int64), np.zeros((0, width)), self.proba))
        cells = names + list(self.tree.classes)
        if replaced_columns(names, chunk.names) or not all(plain(cell, chunk.raw.sep) for cell in cells):
            raise NotPlain  # the whole-file path replaces the column (with a warning), or quotes
        self.has_target = encoded.has_target
        work.update(total=chunk.estimate)
        announce = lambda seconds: announce_compiling(seconds, work, self.quiet)  # noqa: E731
        self.run = predictor(self.tree, encoded.table, chunk.estimate, compiling=announce, threads=_spare_cores())
        return chunk.header + "".join(chunk.raw.sep + name for name in names) + "\n"

    def count(self, encoded, predicted, probabilities) -> None:
        """Add a chunk's rows to the report's figures (the target's labels in order of first appearance)."""
        self.rows += len(predicted)
        for name, count in encoded.unseen.items():
            self.unseen[name] = self.unseen.get(name, 0) + count
        actual = encoded.actual
        if self.has_target and not self.tree.schema.is_regression:
            index = {label: i for i, label in enumerate(self.labels)}
            new = [label for label in encoded.labels if label not in index]
            self.labels += tuple(new)
            index.update({label: len(self.labels) - len(new) + i for i, label in enumerate(new)})
            lookup = np.array([index[label] for label in encoded.labels] + [MISSING], dtype=np.int32)
            actual = lookup[actual]
        self.actual.append(actual)
        self.predicted.append(predicted)
        if self.keep_proba:
            self.probabilities.append(probabilities)

    def result(self, source: str) -> Streamed:
        order = [a.name for a in self.tree.schema.attributes if self.unseen.get(a.name)]
        return Streamed(
            source,
            self.has_target,
            {name: self.unseen[name] for name in order},
            np.concatenate(self.actual),
            self.labels,
            np.concatenate(self.predicted),
            np.concatenate(self.probabilities) if self.keep_proba else None,
        )


def _spare_cores() -> int:
    """The processors the kernel may use while the reading thread keeps one busy (at least one)."""
    import os

    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, usable - 1)


def inserted(body: bytes, ends: np.ndarray, pieces: list[bytes], chosen: np.ndarray) -> bytes:
    """``body`` with ``pieces[chosen[i]]`` put before the end of line ``i`` (``ends[i]``: its line
    feed, or the end of ``body``, which then gets one), in whole-array steps."""
    if body[-1:] != b"\n":
        body += b"\n"  # (the last line's end: where its line feed now is)
    width = max(map(len, pieces), default=0)
    table, used = np.zeros((len(pieces), width), dtype=np.uint8), np.zeros((len(pieces), width), dtype=bool)
    for k, piece in enumerate(pieces):
        table[k, : len(piece)] = np.frombuffer(piece, dtype=np.uint8)
        used[k, : len(piece)] = True
    where = np.repeat(ends, used.sum(axis=1)[chosen])
    return np.insert(np.frombuffer(body, dtype=np.uint8), where, table[chosen][used[chosen]]).tobytes()


class ReadAhead:
    """The items of the iterator ``items``, made in a thread (started at once) up to ``depth``
    ahead of the one being used; an exception there is raised here, at its place. ``close`` stops it."""

    def __init__(self, items, depth: int):
        self.slots: queue.Queue = queue.Queue(maxsize=max(1, depth))
        self.stop = threading.Event()
        self.items = items
        self.worker = threading.Thread(target=self.make, name="dtree-read-ahead", daemon=True)
        self.worker.start()

    def make(self) -> None:
        try:
            for item in self.items:
                if not _put(self.slots, (item, None), self.stop):
                    return
            _put(self.slots, (_END, None), self.stop)
        except BaseException as exc:  # handed over: raised in the consumer
            _put(self.slots, (None, exc), self.stop)

    def __iter__(self):
        while True:
            item, exc = self.slots.get()
            if exc is not None:
                raise exc
            if item is _END:
                return
            yield item

    def close(self) -> None:
        self.stop.set()
        self.worker.join()


_END = object()


class Early:
    """DATA read ahead (``ReadAhead``) while the model loads, from the moment its schema is known
    (``schema_known``, for ``serialize.loads_model``'s ``on_schema``); ``close`` stops it."""

    def __init__(self, data: str, limits):
        self.data, self.limits = data, limits
        self.reading: ReadAhead | None = None
        self.schema = None

    def schema_known(self, schema) -> None:
        from dtcli.io.encode import text_columns

        self.schema = schema
        wanted = [a.name for a in schema.attributes] + [schema.target.name]
        chunks = csv_chunks(self.data, wanted, text_columns(schema), self.limits)
        self.reading = ReadAhead(_encoded(chunks, schema), AHEAD)

    def close(self) -> None:
        if self.reading is not None:
            self.reading.close()


def _put(slots: queue.Queue, item, stop: threading.Event) -> bool:
    """Put ``item`` into ``slots`` unless ``stop`` is set first; whether it was put."""
    while not stop.is_set():
        try:
            slots.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False
