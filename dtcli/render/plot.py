"""Drawing the pruning curve with matplotlib (the optional extra ``dtree[plot]``)."""

from __future__ import annotations

from dtcli.errors import ParameterError


def check_plot(path: str) -> None:
    """Before any work: ``path`` ends in .svg or .png, and matplotlib is installed (ParameterError)."""
    import importlib.util

    if not path.lower().endswith((".svg", ".png")):
        raise ParameterError(f"--plot {path}: give a file ending in .svg or .png")
    if importlib.util.find_spec("matplotlib") is None:
        raise ParameterError(NO_MATPLOTLIB)


NO_MATPLOTLIB = "--plot needs matplotlib: pip install 'dtree[plot]' (or pip install matplotlib)"


def plot_curve(points, path: str) -> bytes:
    """Accuracy (training, validation, test) against the number of nodes: the picture for ``path`` (its
    type from the name), as bytes for the caller to write."""
    check_plot(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ParameterError(NO_MATPLOTLIB) from None
    nodes = [p.nodes for p in points]
    figure, axes = plt.subplots(figsize=(6, 4))
    axes.plot(nodes, [p.training for p in points], marker=".", label="training data")
    axes.plot(nodes, [p.validation for p in points], marker=".", label="validation data")
    if any(p.test is not None for p in points):
        axes.plot(nodes, [p.test for p in points], marker=".", label="test data")
    axes.set_xlabel("size of tree (number of nodes)")
    axes.set_ylabel("accuracy")
    axes.set_title("Reduced-error pruning")
    axes.invert_xaxis()
    axes.legend()
    figure.tight_layout()
    import io

    buffer = io.BytesIO()
    figure.savefig(buffer, format=path.rsplit(".", 1)[-1].lower())
    plt.close(figure)
    return buffer.getvalue()
