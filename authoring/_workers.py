"""Worker processes under the toolkit's interrupt policy (the parent owns Ctrl-C and SIGTERM).

A terminal sends Ctrl-C to the whole foreground process group, workers included. If each worker
raised KeyboardInterrupt it would print its own traceback; instead workers ignore SIGINT and
the parent, which gets the same signal, terminates them (``Pool.__exit__`` does). SIGTERM keeps
its default action in workers so that ``terminate()`` ends them at once, silently, even while
they are still starting.

Between the start of a worker and its initializer a Ctrl-C would still find Python's default
handler (a traceback from a half-started worker). A spawned worker is a new program: the
signal mask is not passed on, but an *ignored* SIGINT is, and Python then leaves it ignored; so
while it starts workers the parent ignores SIGINT, with SIGINT blocked so that a Ctrl-C that
arrives meanwhile stays pending for the parent instead of being dropped. SIGTERM keeps its
default action in a new program, so a worker terminated while starting just ends; the parent
holds SIGTERM back too, until every worker it started has its task. A forked worker inherits
the parent's Python handlers instead: an at-fork hook resets both signals in the child before
it runs anything else.
Standard library only, so every layer may use it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.pool import Pool
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

_starting = False
_hook_installed = False


def _reset_in_forked_child() -> None:
    if _starting:
        init_worker()


@contextlib.contextmanager
def starting_workers(method: str = "spawn") -> Iterator[None]:
    """Holds back the signals a worker must not see while it starts (``method``: fork, spawn)."""
    global _starting, _hook_installed
    if not _hook_installed:
        os.register_at_fork(after_in_child=_reset_in_forked_child)
        _hook_installed = True
    forked = method == "fork"
    if not forked:
        # multiprocessing starts its resource tracker on first need and then *unblocks*
        # SIGINT: start it now, before SIGINT is held back, or a Ctrl-C could be dropped
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    # both held back in the parent: a signal between the start of a worker and the hand-over
    # of its task would leave a worker that reads an empty pipe (and says so in a traceback)
    previous_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    previous_handler = None
    if not forked and threading.current_thread() is threading.main_thread():
        previous_handler = signal.getsignal(signal.SIGINT)
        if previous_handler is not None:
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # passed on to the new programs
    _starting = True
    try:
        yield
    finally:
        _starting = False
        if previous_handler is not None:
            signal.signal(signal.SIGINT, previous_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, previous_mask)


def init_worker() -> None:
    """Initializer of every worker process: ignore SIGINT, die on SIGTERM, then unblock."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


def _init_then(initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    init_worker()
    if initializer is not None:
        initializer(*initargs)


def quickest_start_method() -> str:
    """``fork`` while this process runs one thread (it starts in milliseconds and needs no
    importable ``__main__``), else ``spawn`` (forking a threaded process is unsafe)."""
    single = threading.active_count() == 1
    return "fork" if single and "fork" in multiprocessing.get_all_start_methods() else "spawn"


def worker_pool(processes: int, method: str = "spawn",
                initializer: Callable[..., None] | None = None,
                initargs: tuple[Any, ...] = ()) -> Pool:
    """A pool of ``processes`` workers under the interrupt policy; use it as ``with pool:``,
    whose exit terminates the workers. ``initializer`` (module-level) runs after
    ``init_worker`` in each."""
    with starting_workers(method):
        return multiprocessing.get_context(method).Pool(
            processes, initializer=_init_then, initargs=(initializer, initargs))


def default_jobs() -> int:
    """Returns the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def ordered_map(function: Callable[[T], R], items: Sequence[T], *, jobs: int | None = None,
                parallel_from: int) -> Iterator[R]:
    """Yields ``function(item)`` for each item, in order, on up to ``jobs`` cores.

    Fewer than ``parallel_from`` items (or one core) run in this process: a worker's start-up
    would cost more than it saves. ``function`` must be module-level (workers run it).
    """
    workers = min(jobs if jobs is not None else default_jobs(), len(items) // (parallel_from // 2))
    if workers < 2 or len(items) < parallel_from:
        yield from map(function, items)
        return
    with worker_pool(workers, quickest_start_method()) as pool:
        yield from pool.imap(function, items,
                             chunksize=max(1, min(64, len(items) // (workers * 8))))
