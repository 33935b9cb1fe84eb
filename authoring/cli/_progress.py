"""The progress of simulations on a terminal: ``sheets --rate``, ``lint --select G``, ``simulate``.

A rating plays hundreds of games (10-45 s on two cores, docs/simulation.md): the command says
so while it works. Each simulation run inside ``simulation_progress`` gets one line of a Rich
progress display on stderr (games played, percent, time), removed when the command ends. Not
on a terminal (a script, a pipe, CI), nothing is drawn and Rich is not even loaded.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any


def _on_terminal() -> bool:
    return (sys.stderr.isatty() and os.environ.get("TERM") != "dumb") \
        or "FORCE_COLOR" in os.environ


@contextlib.contextmanager
def simulation_progress(what: str = "simulating") -> Iterator[None]:
    """Shows every simulation started inside as a progress line on stderr (terminals only)."""
    if not _on_terminal():
        yield
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    from authoring.simulation.montecarlo import reporting

    console = Console(stderr=True)
    tasks: dict[tuple[str, int], Any] = {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("games"), TaskProgressColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as bar:

        def show(done: int, total: int, crew: str) -> None:
            key = (crew, total)
            task = tasks.get(key)
            if task is None or bar.tasks[task].finished:
                # a new run (the comparison of simulate plays several): a line of its own
                task = tasks[key] = bar.add_task(f"{what} ({crew} crew)", total=total)
            bar.update(task, completed=done, refresh=True)  # each step drawn, even a quick run

        with reporting(show):
            yield
