"""Issue 18's targets, each with the value measured and met or MISSED (stretch targets marked as such)."""

from __future__ import annotations

MILLION = 1_000_000


class Verdicts:
    """The lines of the verdict list, one per target."""

    def __init__(self):
        self.lines = [f"issue 18's targets (per-table ones on the largest table; they are set for {MILLION:,} rows):"]

    def check(self, what: str, value: float, limit: float, unit: str = "x", stretch: bool = False) -> None:
        verdict = "met" if value <= limit else "MISSED"
        kind = " (stretch)" if stretch else ""
        self.lines.append(f"{verdict:>6}  {what}: {value:.3f}{unit} (target <= {limit:g}{unit}){kind}")

    def holds(self, what: str, fact: bool) -> None:
        self.lines.append(f"{'met' if fact else 'MISSED':>6}  {what}: {'yes' if fact else 'no'}")

    def note(self, what: str) -> None:
        self.lines.append(f"     -  {what}")


def verdicts(measured: dict, cold: dict, startup: dict) -> list[str]:
    """The targets that this run measured: prediction, memory, training time, the cold first run, start-up."""
    found = Verdicts()
    if measured:
        big = max(measured)
        per_table(found, big, measured[big])
        if 100_000 in measured:
            at = measured[100_000]
            for key in ("c45", "cart"):
                if key in at and "ydf" in at:
                    found.check(f"{key} training / YDF at 100,000 rows", at[key].wall / at["ydf"].wall, 1.0)
    for algorithm, first in cold.items():
        found.check(f"cold first run, train -a {algorithm}", first.run.wall, 10.0, " s")
        if first.compiled:
            found.holds(f"cold first run, train -a {algorithm}: the compile announced", first.announced)
        else:
            found.note(f"cold first run, -a {algorithm}: no kernels compiled, nothing to announce")
    if "gain" in startup and "weka-id3" in startup:
        ratio = startup["gain"].wall / startup["weka-id3"].wall
        found.check("start-up: dtree gain on the sample data / Weka Id3 (JVM included), wall", ratio, 1.0)
        gain, weka = startup["gain"].cpu, startup["weka-id3"].cpu
        found.note(f"start-up CPU (user + system): dtree gain {gain:.3f} s, Weka Id3 {weka:.3f} s: {gain / weka:.2f}x")
    return found.lines


def per_table(found: Verdicts, big: int, at: dict) -> None:
    """The targets set on the million-row table, checked on the largest table measured."""
    rows = f"at {big:,} rows"
    if "predict-cart" in at:
        if "ydf-predict" in at:
            ratio = at["predict-cart"].wall / at["ydf-predict"].wall
            found.check(f"predict with the large CART model / YDF's predict {rows}", ratio, 1.0)
            found.check(f"predict with the large CART model / YDF's predict {rows}", ratio, 0.3, stretch=True)
        found.check(f"predict with the large CART model {rows}", at["predict-cart"].wall, 5.0, " s")
    for key in ("c45", "cart"):
        if key not in at:
            continue
        found.check(f"{key} training peak memory {rows}", at[key].peak_mb, 500.0, " MB")
        if "ydf" in at:
            memory = at[key].peak_mb / at["ydf"].peak_mb
            found.check(f"{key} training peak memory / YDF's {rows}", memory, 1.0, stretch=True)
            found.check(f"{key} training / YDF {rows}", at[key].wall / at["ydf"].wall, 0.5)
        sklearn = "sklearn-entropy" if key == "c45" else "sklearn-gini"
        if sklearn in at:
            found.check(f"{key} training / scikit-learn {rows}", at[key].wall / at[sklearn].wall, 0.10, stretch=True)
