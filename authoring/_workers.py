"""Worker processes under the toolkit's interrupt policy (the parent owns Ctrl-C and SIGTERM).

A terminal sends Ctrl-C to the whole foreground process group, workers included. If each worker
raised KeyboardInterrupt it would print its own traceback; instead workers ignore SIGINT and
the parent, which gets the same signal, terminates them (``Pool.__exit__`` does). SIGTERM keeps
its default action in workers so that ``terminate()`` ends them at once, silently, even while
they are still starting.

Between the start of a worker and its initializer a Ctrl-C would still find Python's default
handler (a traceback from a half-started worker), so the parent blocks SIGINT while it starts
workers: they inherit the blocked mask and unblock it once SIGINT is ignored (a pending one is
then dropped); the parent receives its own as soon as it unblocks. SIGTERM is not blocked for
spawned workers (after ``exec`` its action is the default one, so a worker terminated while
starting just ends); a forked worker would inherit the parent's Python handler, so an at-fork
hook resets both signals in the child before it runs anything else, with SIGTERM blocked in
the parent around the fork so that nothing slips in before the hook.
Standard library only, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator

_starting = False
_hook_installed = False


def _reset_in_forked_child() -> None:
    if _starting:
        init_worker()


@contextlib.contextmanager
def starting_workers(method: str = "spawn") -> Iterator[None]:
    """Blocks the signals a worker must not see while it starts (``method``: fork or spawn)."""
    global _starting, _hook_installed
    if not _hook_installed:
        os.register_at_fork(after_in_child=_reset_in_forked_child)
        _hook_installed = True
    blocked = {signal.SIGINT, signal.SIGTERM} if method == "fork" else {signal.SIGINT}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
    _starting = True
    try:
        yield
    finally:
        _starting = False
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def init_worker() -> None:
    """Initializer of every worker process: ignore SIGINT, die on SIGTERM, then unblock."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
