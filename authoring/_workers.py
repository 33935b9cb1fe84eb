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
from multiprocessing.connection import Connection
from multiprocessing.pool import Pool
from multiprocessing.process import BaseProcess
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

    Not a ``multiprocessing.Pool``: its ``terminate()`` can hang for ever after Ctrl-C. Its
    result thread reads every worker's results from one shared pipe, whose write end the
    parent holds open too; a worker terminated in the middle of sending a result larger than
    the pipe's buffer (generate's chunks of mission texts are) leaves half a message, and the
    thread waits for the rest while ``terminate()`` joins it (once in about 45 interrupted
    ``generate --count`` runs). Here each worker has its own pair of pipes whose write ends only
    it holds, and no thread of the parent waits on them: an interrupt terminates the workers
    and joins them, and a worker that dies is an end of file, not a wait.
    """
    workers = min(jobs if jobs is not None else default_jobs(), len(items) // (parallel_from // 2))
    if workers < 2 or len(items) < parallel_from:
        yield from map(function, items)
        return
    size = max(1, min(64, len(items) // (workers * 8)))
    chunks = [list(items[start:start + size]) for start in range(0, len(items), size)]
    yield from _ChunkWorkers(function, workers, quickest_start_method()).map(chunks)


#: Chunks sent ahead to each worker: one to work on, one waiting, so that it never idles.
AHEAD = 2


def _serve(function: Callable[[T], R], tasks: Connection, results: Connection,
           others: Sequence[Connection] = ()) -> None:
    """A worker's loop: a chunk of items in, the list of their results (or the error) out.

    ``others`` are the parent's ends of this worker's pipes and of those of the workers
    started before it, which a forked worker holds too: closed at once, so that only the
    parent holds them and its death (even by ``kill -9``) is an end of file or a broken pipe
    for every worker, which then ends.
    """
    init_worker()
    for end in others:
        end.close()
    while True:
        try:
            chunk = tasks.recv()
        except (EOFError, OSError):  # the parent is gone: nobody wants the rest
            return
        if chunk is None:
            return
        try:
            answer: tuple[bool, object] = (True, [function(item) for item in chunk])
        except Exception as error:  # raised again in the parent, as Pool.imap does
            answer = (False, error)
        try:
            results.send(answer)
        except OSError:  # a broken pipe: the parent is gone
            return
        except Exception as error:  # e.g. an exception that cannot be pickled
            try:
                results.send((False, RuntimeError(f"{type(error).__name__}: {error}")))
            except OSError:
                return


class _ChunkWorkers:
    """Worker processes with a task pipe and a result pipe each: chunk k goes to worker
    k mod n, so reading each worker's results in turn gives them back in order."""

    def __init__(self, function: Callable[[T], R], count: int, method: str) -> None:
        self._context = multiprocessing.get_context(method)
        self._function = function
        self._count = count
        self._method = method

    def map(self, chunks: Sequence[list[T]]) -> Iterator[R]:
        """Yields the results of every chunk's items, in order; ends the workers however it
        ends (the last chunk, an error, Ctrl-C, the generator closed)."""
        started: list[tuple[BaseProcess, Connection, Connection]] = []
        finished = False
        try:
            with starting_workers(self._method):
                for _ in range(min(self._count, len(chunks))):
                    task_reader, task_writer = self._context.Pipe(duplex=False)
                    result_reader, result_writer = self._context.Pipe(duplex=False)
                    # a forked worker inherits the parent's ends of its own pipes and of the
                    # earlier workers' pipes
                    others = [task_writer, result_reader, *(
                        end for _p, tasks, results in started for end in (tasks, results))] \
                        if self._method == "fork" else []
                    process: BaseProcess = self._context.Process(  # type: ignore[attr-defined]
                        target=_serve, args=(self._function, task_reader, result_writer,
                                             others), daemon=True)
                    process.start()
                    # only the worker holds its ends now: its death is an end of file here
                    task_reader.close()
                    result_writer.close()
                    started.append((process, task_writer, result_reader))
            sent = 0
            for _ in range(AHEAD):
                for _process, tasks, _results in started:
                    if sent < len(chunks):
                        tasks.send(chunks[sent])
                        sent += 1
            for index in range(len(chunks)):
                process, tasks, results = started[index % len(started)]
                try:
                    ok, value = results.recv()
                except EOFError:
                    raise RuntimeError(f"a worker process ended unexpectedly (exit code "
                                       f"{process.exitcode})") from None
                if not ok:
                    assert isinstance(value, BaseException)
                    raise value
                if sent < len(chunks):
                    tasks.send(chunks[sent])
                    sent += 1
                assert isinstance(value, list)
                yield from value
            for _process, tasks, _results in started:
                tasks.send(None)
            finished = True
        finally:
            _end(started, finished)


def _end(started: Sequence[tuple[BaseProcess, Connection, Connection]],
         finished: bool) -> None:
    """Ends the workers: after the last chunk they end by themselves (their None); otherwise
    those still running are terminated (SIGTERM, their default action: at once, silently).
    Then every one is joined and its pipes closed."""
    for process, _tasks, _results in started:
        if finished:
            process.join(timeout=5)
        if process.exitcode is None:
            process.terminate()
    for process, tasks, results in started:
        process.join()
        tasks.close()
        results.close()
