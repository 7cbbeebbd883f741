"""The command class of every subcommand: before any work, it refuses an output no file can go to.

That is an output naming one of the command's inputs (``io/targets.py``), a directory, a file in a
missing directory, or the file another output names; and an input or output ``-`` whose standard
stream was closed at the start. The work then runs as one run of outputs (``io/write.py``): its
files are put in place only if it succeeds. It also ends the start-up's hold on the garbage
collector (``hold_collection``, from ``main``).
"""

from __future__ import annotations

import gc

import click

from dtcli.errors import ParameterError
from dtcli.streams import refuse_closed

# Parameters that name files the command reads, and files it writes.
INPUTS = ("model", "other", "data", "second", "validation", "test_data", "costs")  # other: diff's B; second: evaluate's
OUTPUTS = ("output", "plot", "trace_file", "metrics_json")


class Command(click.Command):
    """A click Command that checks, before running, that no output names an input file."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """-a/--algorithm's value in any case, and its aliases (C4.5, J48: c45), on every command with -a."""
        if any("--algorithm" in getattr(param, "opts", ()) for param in self.params):
            from dtcli.cli.options import algorithm_name

            args = list(args)
            for i, arg in enumerate(args):
                if arg == "--":
                    break
                if arg in ("-a", "--algorithm") and i + 1 < len(args):
                    args[i + 1] = algorithm_name(args[i + 1])
                elif arg.startswith("--algorithm="):
                    args[i] = "--algorithm=" + algorithm_name(arg.partition("=")[2])
                elif arg.startswith("-a") and not arg.startswith("--") and len(arg) > 2:
                    args[i] = "-a" + algorithm_name(arg[2:])
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        collect_again()
        from dtcli.io.write import check_output, refuse_inputs
        from dtcli.render.console import release_messages

        release_messages()  # a run starts writing its messages (an earlier run in this process held them)

        names = {param.name: _flag(param) for param in self.params}
        for name in (*INPUTS, *OUTPUTS):
            if ctx.params.get(name) == "":
                raise ParameterError(f"{names[name]}: empty file name; give a file name, or - for standard "
                                     f"{'input' if name in INPUTS else 'output'}")  # fmt: skip
        from dtcli.io.targets import stream_fd

        for name in (*INPUTS, *OUTPUTS):  # a standard stream that began closed: refused before any work
            path = ctx.params.get(name)
            if path == "-":
                refuse_closed(0 if name in INPUTS else 1)
            elif path and (fd := stream_fd(path)) is not None:  # /dev/stdout, /dev/fd/1, a link to one ...
                refuse_closed(fd)
        if self.name == "evaluate" and ctx.params.get("second"):
            names["data"] = "MODEL"  # (evaluate MODEL DATA: both arguments are DATA in the usage)
        inputs: dict[str, str] = {}
        for name in INPUTS:
            if ctx.params.get(name):  # each input under a name of its own, even where two print alike
                inputs[names[name] if names[name] not in inputs else f"{names[name]} ({name})"] = ctx.params[name]
        folder = self.name == "predict" and ctx.params.get("engine") == "dask"  # -o OUTDIR (predict_dask.check)
        files: list[tuple[str, str]] = []  # (flag, path) of the outputs that are files
        for name in OUTPUTS:
            path = ctx.params.get(name)
            if path and path != "-":
                refuse_inputs(path, names[name], inputs, folder=folder and name == "output")
                if not (folder and name == "output"):
                    check_output(path)
                    _refuse_twice(names[name], path, files)
                    files.append((names[name], path))
        if "fmt" in ctx.params and not folder:
            from click.core import ParameterSource

            from dtcli.cli.extensions import choose_format

            given = ctx.get_parameter_source("fmt") not in (ParameterSource.DEFAULT, None)
            ctx.params["fmt"] = choose_format(self.name, ctx.params.get("output"), ctx.params["fmt"], given)
        return _run(super().invoke, ctx)


def _run(invoke, ctx: click.Context):
    """The command's work, its output files put in place only if it succeeds (``dtcli.io.write``):
    a run that fails or is stopped leaves no output written and no temporary file."""
    from dtcli.io import write

    write.begin()
    try:
        result = invoke(ctx)
    except click.exceptions.Exit:  # an exit status the command chose (diff's 1: "different")
        write.succeeded()
        raise
    except BaseException:
        write.failed()
        raise
    write.succeeded()
    return result


def _refuse_twice(flag: str, path: str, earlier: list[tuple[str, str]]) -> None:
    """Two outputs naming one file: the second would replace the first."""
    from dtcli.io.targets import same_output

    for other_flag, other in earlier:
        if same_output(other, path):
            raise ParameterError(
                f"{path}: {flag} names the same file as {other_flag}; give each output a file of its own"
            )


# Whether hold_collection turned the garbage collector off (and collect_again should turn it back on).
_HELD = {"collection": False}


def hold_collection() -> None:
    """Turn the garbage collector off while dtree starts: importing the command's modules (numpy's
    among them) makes many objects and little garbage, and the collections they trigger cost about
    3 ms of `dtree gain`'s 100. :func:`collect_again` turns it back on before the command's work."""
    if gc.isenabled():
        gc.disable()
        _HELD["collection"] = True


def collect_again() -> None:
    """The start-up is over: what it made is frozen (never examined by later collections, which a long
    run makes cheaper) and the collector is on again. Does nothing unless :func:`hold_collection` held it."""
    if _HELD["collection"]:
        _HELD["collection"] = False
        gc.freeze()
        gc.enable()


def _flag(param: click.Parameter) -> str:
    """How the user wrote a parameter: DATA for an argument, the short or long option for an option."""
    if isinstance(param, click.Argument):
        return param.human_readable_name
    return min(param.opts, key=len) if param.name == "output" else max(param.opts, key=len)
