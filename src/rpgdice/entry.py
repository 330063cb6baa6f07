"""Where the console script (``rpgdice``) and ``python -m rpgdice`` start.

This module imports nothing but ``os``, ``gc`` and ``_signal`` (built in), so that
Ctrl-C is handled from the first moment of a run, even while Typer and the ruleset
load: one line on stderr (``rpgdice: interrupted``), exit 130, at any point.
Then the standard streams are made safe (:mod:`rpgdice.streams`), the command runs,
its output is flushed, and the process exits at once.

The cyclic garbage collector waits while the process starts (:data:`GC_PAUSE`): the
modules, classes and functions that every run loads are never garbage, and collecting
among them as they load cost a roll 5-9 ms of CPU. A process that runs longer (``serve``,
a session) collects as any other from then on.
"""

import gc
import os

TYPE_CHECKING = False  # typing's own costs an import before the handler is set
if TYPE_CHECKING:
    import signal as _signal  # the same functions, with type stubs
else:
    import _signal  # built in: no enum classes to build before the handler is set

EXIT_INTERRUPTED = 130
"""Exit status on Ctrl-C (128 + SIGINT), as shells report it."""
GC_PAUSE = 0.5
"""Seconds from the start during which the cyclic garbage collector does not run: a
one-shot command is over by then (reference counting frees its garbage meanwhile)."""


def _interrupted(signum: int, frame: object) -> None:
    """Ctrl-C: one line, exit 130, now (no traceback, no half-run teardown)."""
    try:
        os.write(2, b"rpgdice: interrupted\n")
    except OSError:
        pass
    os._exit(EXIT_INTERRUPTED)


def run() -> None:
    """The console script: Ctrl-C handled, streams made safe, the command run, its
    output flushed, then exit at once (the interpreter's teardown of every loaded
    module measured 7-13 ms of each roll)."""
    if _signal.getsignal(_signal.SIGINT) != _signal.SIG_IGN:  # a background job keeps ignoring it
        _signal.signal(_signal.SIGINT, _interrupted)
    pause_collector()
    from rpgdice import streams

    streams.prepare()
    from rpgdice.cli import main

    os._exit(streams.finish(main()))


def pause_collector(seconds: float = GC_PAUSE) -> None:
    """Let the cyclic garbage collector wait ``seconds`` (a daemon timer enables it again),
    if it is running: startup's objects are never garbage (:data:`GC_PAUSE`)."""
    if not gc.isenabled():
        return
    import threading

    gc.disable()
    again = threading.Timer(seconds, gc.enable)
    again.daemon = True
    again.start()
