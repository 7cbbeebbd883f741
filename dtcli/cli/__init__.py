"""The ``dtree`` command: a Click group whose subcommands load on demand.

This is the one place that turns a :class:`~dtcli.errors.DtreeError` into
``Error: message`` on stderr and exit status 1. Subcommand modules are
imported only when run, so ``dtree gain`` does not pay for ``predict``.
"""

from __future__ import annotations

import contextlib
import importlib
import os

import click

from dtcli.errors import DtreeError
from dtcli.version import __version__

# numpy's OpenBLAS starts a thread per core when numpy is imported (about 20 ms of CPU at every start);
# dtree's matrix products are a few rows long, so one thread is all they use. The user's setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

COMMANDS = {
    "diff": ("dtcli.cli.diff", "Compare two trees or rule sets node by node; exit status as diff(1)."),
    "evaluate": ("dtcli.cli.evaluate", "Judge a model on test data, or training by cross-validation: accuracy, kappa."),
    "gain": ("dtcli.cli.gain", "Show entropy, information gain, gain ratio and Gini for each attribute."),
    "predict": ("dtcli.cli.predict", "Apply a model to data: predictions, probabilities, accuracy."),
    "prune": ("dtcli.cli.prune", "Prune a model: cost-complexity, pessimistic or reduced-error."),
    "rules": ("dtcli.cli.rules", "Turn a tree into IF-THEN rules; post-prune them; export as Python or SQL."),
    "show": ("dtcli.cli.show", "Draw a tree: SVG, Graphviz DOT or mermaid, or print it as train does."),
    "train": ("dtcli.cli.train", "Learn a decision tree from a CSV, ARFF or Parquet file."),
    "warm-up": ("dtcli.cli.warmup", "Compile the compiled engines' kernels into this machine's cache (Docker, CI)."),
}
# A command whose errors exit with another status than 1: diff's 1 means "different", as diff(1)'s.
TROUBLE_STATUS = {"diff": 2}


class LazyGroup(click.Group):
    """A group that imports a subcommand's module only when it is invoked."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[name][0])
        return module.command

    def resolve_command(self, ctx: click.Context, args: list[str]):
        """As click's, but an unknown command suggests the closest ones (``dtree trian``: train)."""
        name = args[0] if args else ""
        if name in COMMANDS or name.startswith("-") or not args:
            return super().resolve_command(ctx, args)
        import difflib

        close = difflib.get_close_matches(name, sorted(COMMANDS), n=2, cutoff=0.6)
        if not close:
            return super().resolve_command(ctx, args)
        ctx.fail(f"No such command {name!r}. Did you mean {' or '.join(repr(c) for c in close)}?")

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except DtreeError as exc:
            _fail(ctx, str(exc))
        except MemoryError:
            _fail(ctx, "out of memory; try a smaller table (--max-rows) or a machine with more memory")
        except Exception as exc:  # a bug: still one line, unless DTREE_DEBUG asks for the traceback
            from dtcli.cli.signals import interrupt_within

            stop = interrupt_within(exc)
            if stop is not None:  # a stop signal, wrapped on its way up (class creation: RuntimeError)
                raise stop from None
            _closed_pipe(exc)
            if isinstance(exc, OSError) and click_wrote(exc):  # a command's --help on a full disk
                _fail(ctx, f"standard output: cannot write: {exc.strerror or exc}")
            if os.environ.get("DTREE_DEBUG"):
                raise
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            _fail(ctx, f"internal error ({detail}); this is a bug in dtree: please report it with the command line "
                  "(DTREE_DEBUG=1 shows where it happened)")  # fmt: skip


def _closed_pipe(exc: Exception) -> None:
    """A write to standard output outside ``console.data`` whose reader has gone ends the run quietly
    (ClosedPipe); any other error returns."""
    if isinstance(exc, BrokenPipeError):
        from dtcli.render.console import end_quietly, stdout_closed

        if stdout_closed():
            end_quietly()


def click_wrote(exc: BaseException) -> bool:
    """Whether ``exc`` was raised by click writing its own text (``--help``, ``--version``): the rest
    of dtree's output goes through ``render.console``, which reports its failed writes itself."""
    trace = exc.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_name == "echo" and trace.tb_frame.f_globals.get("__name__") == "click.utils":
            return True
        trace = trace.tb_next
    return False


def _fail(ctx: click.Context, message: str) -> None:
    """The one error line (every line break in the message becomes a space) and exit status 1
    (2 for ``dtree diff``, whose 1 means "different")."""
    from dtcli.render.console import error, release_messages

    release_messages()
    error(" ".join(message.splitlines()))
    ctx.exit(TROUBLE_STATUS.get(ctx.invoked_subcommand, 1))


def _no_color(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        from dtcli.render.console import set_no_color

        set_no_color(True)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="dtree")
@click.option(
    "--no-color",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_no_color,
    help="Never use colour (also: the NO_COLOR environment variable).",
)
def cli() -> None:
    """dtree: learn, explain and apply decision trees (ID3, C4.5, CART).

    DATA is a .csv or .arff file, a .parquet file or a directory of them
    (pip install 'dtree[scale]'), or - for standard input. The class column
    is the last one unless --target names another. Results go to standard
    output; messages to standard error. Exit status: 0 success, 1 a problem
    with the data, model or options (or a failed write), 2 a command-line
    usage error, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 141
    standard output closed by its reader (| head), quietly.
    'dtree diff' exits as diff(1) does: 0 equivalent, 1 different, 2 trouble.

    On Linux the first command starts a resident process that keeps dtree
    loaded and runs later commands in a copy of itself, with the same output
    (it ends after 15 idle minutes; DTREE_RESIDENT=0 turns it off; man dtree).

    Examples:

      dtree gain sample_data/weather.csv --ignore Day

      dtree train sample_data/weather.csv --ignore Day -o weather.json

      dtree predict weather.json sample_data/weather.csv
    """
    from dtcli import notes

    notes.install(_console_warn)  # io's notes (what CSV detection assumed) as Warning: lines


def _console_warn(message: str) -> None:
    """The console's ``warn``, imported when the first note comes (a run without one never loads it)."""
    from dtcli.render.console import warn

    warn(message)


def main() -> None:
    """Console-script entry point: stop signals end the run with one line and status 128 + N.

    The process ends with ``os._exit`` once the output is flushed: a signal that arrives while
    the interpreter would be tearing itself down (after the work is done) cannot kill it then.
    """
    from dtcli.cli.guard import hold_collection

    hold_collection()  # until the command's modules are loaded
    # (imported before the handlers are: until then a stop ends the run at once, dtcli/stops.py;
    # once they raise Interrupt, only the try below may be running)
    from dtcli.cli import signals
    from dtcli.render.console import CLOSED_PIPE_STATUS, ClosedPipe
    from dtcli.streams import use_utf8

    signals.install()
    use_utf8()  # whatever the locale; a file name that is not UTF-8 prints as \xff
    try:
        cli.main(prog_name="dtree")
        status, line = 0, None
    except DtreeError as exc:  # outside a command: --help or --version with standard output closed
        status, line = 1, f"Error: {exc}"
    except OSError as exc:  # outside a command: click's own text (--help, --version) could not be written
        if isinstance(exc, BrokenPipeError) or not click_wrote(exc):
            raise
        status, line = 1, f"Error: standard output: cannot write: {exc.strerror or exc}"
    except SystemExit as exc:
        status, line = _status(exc.code), None
    except ClosedPipe:  # the reader of standard output has gone (| head): end quietly, as Unix filters do
        status, line = CLOSED_PIPE_STATUS, None
    except (signals.Interrupt, KeyboardInterrupt) as exc:
        stop = signals.interrupt_for(exc)
        status, line = stop.status, str(stop)
    signals.ignore()
    if status:
        from dtcli.io.write import failed

        failed()  # (temporary files a second stop, during the failed run's clean-up, left)
    _finish(status, line)


def _status(code) -> int:
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def _finish(status: int, line: str | None) -> None:
    """Print ``line`` on stderr (if any, and if it still can), flush, and exit with ``status``."""
    from dtcli.render.console import console

    if line is not None:
        with contextlib.suppress(OSError, ValueError):
            console.message(line)
    for stream in (console.stdout, console.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(status)
