"""Worker processes under the toolkit's interrupt policy (the parent owns Ctrl-C and SIGTERM).

A terminal sends Ctrl-C to the whole foreground process group, workers included. If each worker
raised KeyboardInterrupt it would print its own traceback; instead workers ignore SIGINT and
the parent, which gets the same signal, terminates them (``Pool.__exit__`` does). SIGTERM keeps
its default action in workers so that ``terminate()`` ends them at once.

Between the fork of a worker and its initializer a signal would still find Python's default
handlers (a traceback from a half-started worker), so the parent blocks SIGINT and SIGTERM while
it starts workers: they inherit the blocked mask, unblock it once the initializer has set their
handlers, and the parent receives anything that arrived meanwhile as soon as it unblocks.
Standard library only, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_POLICY_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def starting_workers() -> Iterator[None]:
    """Blocks SIGINT and SIGTERM in this thread while worker processes are being started."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _POLICY_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def init_worker() -> None:
    """Initializer of every worker process: ignore SIGINT, die on SIGTERM, then unblock."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _POLICY_SIGNALS)
