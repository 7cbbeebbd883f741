"""The signals that stop a run, the word each prints, and the handler in force before the commands load.

``dtcli.cli.signals`` installs the command's own handlers once the command line is
being read; a stop that arrives sooner (Python and click are still starting, some
0.1 s, longer on a busy machine) finds nothing read and nothing written, so it ends
the run at once with the same one line and status 128 + the signal number. This
module imports only the standard library, so it is in force from the first moment.
"""

from __future__ import annotations

import contextlib
import os
import signal

# The signals a run stops on, and the word for each in the one line it prints.
STOPS = {signal.SIGINT: "Interrupted", signal.SIGTERM: "Interrupted (SIGTERM)", signal.SIGHUP: "Interrupted (SIGHUP)"}


def stop_at_start(signum, frame) -> None:
    """A stop before the command's handlers are in place: the one line (if stderr can take it), 128 + N."""
    with contextlib.suppress(OSError):
        os.write(2, (STOPS.get(signum, "Interrupted") + "\n").encode())
    os._exit(128 + int(signum))


def install_early() -> None:
    """``stop_at_start`` for every stop signal; an ignored SIGHUP stays ignored (``nohup``)."""
    for signum in STOPS:
        if signum != signal.SIGHUP or signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, stop_at_start)
