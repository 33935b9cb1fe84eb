"""The ``spacealert`` command line: a thin face over the library.

This module is what the console script imports first, so it holds only the standard library:
the interrupt policy, the exit codes and the table of commands. The Typer application lives in
``authoring.cli._app`` and each command in its own module, imported only when that command runs
(``spacealert --version`` imports no third-party package at all; ``--help`` imports Typer and
Click but no command). Nothing imports the CLI.

Interrupt policy (one, for every command, from the first line of ``main``): SIGINT and SIGTERM
end the command with one line, ``interrupted``, and exit 130 or 143; no traceback, whatever was
running (imports included); ``finally`` blocks and the atomic writer (``authoring/_files.py``)
remove temp files on the way out; worker processes ignore SIGINT and are terminated by their
parent (``authoring/_workers.py``). A bug (an exception that is not the toolkit's own) exits 70
with one line asking for a report; ``SPACEALERT_DEBUG=1`` shows its traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from types import FrameType
from typing import Any, NamedTuple

from authoring import __version__

EXIT_INTERNAL_ERROR = 70  # EX_SOFTWARE in sysexits.h
DEBUG_VARIABLE = "SPACEALERT_DEBUG"


class Command(NamedTuple):
    """One entry of ``spacealert --help``: the module that defines it and its summary line."""

    module: str
    summary: str
    group: bool = False  # the module's Typer app is itself the group (``pack``)


# In the order a mission author meets them. The summaries are the first lines of the commands'
# docstrings (tests/test_cli_startup.py keeps them equal), so ``--help`` imports no command.
COMMANDS: dict[str, Command] = {
    "validate": Command("validate", "Validate mission files: can each be played as written?"),
    "timeline": Command("timeline", "Print the compiled timeline: every cue the soundtrack "
                        "will contain, in ms."),
    "lint": Command("lint", "Lint mission files: structure, threats, timing and (opt-in) audio "
                    "and simulation."),
    "rules": Command("rules", "List the lint rules, or explain one: what it checks, why, "
                     "options and examples."),
    "render": Command("render", "Render a playable soundtrack: synthesized voice, sound "
                      "effects, one mixed file."),
    "voices": Command("voices", "List, check and inspect the voices; make clip packs.", group=True),
    "simulate": Command("simulate", "Play a mission many times with a crew model: survival, "
                        "scores, killers, damage."),
    "resolve": Command("resolve", "Resolve a crew plan against a mission: turn-by-turn log, "
                       "outcome and score."),
    "solve": Command("solve", "Find the crew plan with the best expected score for a mission "
                     "and a threat draw."),
    "sheets": Command("sheets", "Print a mission sheet as PDF or HTML."),
    "generate": Command("generate", "Generate random missions calibrated to the official "
                        "tracks."),
    "import": Command("interchange", "Convert a mission from another tool's format into a "
                      "mission file."),
    "export": Command("interchange", "Write a mission in a format other players read "
                      "(Flash-player code, JSAMG XML)."),
    "schema": Command("schema", "Print a JSON Schema shipped with the toolkit (Draft 2020-12)."),
    "play": Command("play", "Play a mission's soundtrack now: rendered through the cache, then "
                    "played at once."),
    "studio": Command("studio", "Edit missions on a visual timeline in the browser, with live "
                      "checks and listening."),
    "pack": Command("pack", "Build a mission pack into a static website with an in-browser "
                    "player.", group=True),
}

_received: list[int] = []  # the signals that arrived, in order
_finished = False


def _on_signal(signum: int, frame: FrameType | None) -> None:
    # The first signal unwinds the command (KeyboardInterrupt runs every finally block and
    # cleanup); later ones, and any after the command ended, are only noted so that the
    # cleanup itself is never cut short with a traceback.
    first = not _received
    _received.append(signum)
    if first and not _finished:
        raise KeyboardInterrupt


def _install_signal_handlers() -> None:
    for signum in (signal.SIGINT, signal.SIGTERM):
        # A shell starts background jobs with SIGINT ignored: keep what the caller asked for.
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _on_signal)


def _forget_script_path() -> None:
    # multiprocessing's "spawn" re-runs the main script in every worker; when that script is the
    # ``spacealert`` console script it would import the CLI there. Workers need nothing from it.
    main_module = sys.modules.get("__main__")
    if main_module is not None and getattr(main_module, "__spec__", None) is None:
        path = getattr(main_module, "__file__", None)
        if path and os.path.basename(path).startswith("spacealert"):
            del main_module.__file__


def _internal_error(error: BaseException) -> int:
    if os.environ.get(DEBUG_VARIABLE, "") not in ("", "0"):
        import traceback

        traceback.print_exception(error)
    detail = f"{type(error).__name__}: {error}".splitlines()[0][:300]
    sys.stderr.write(
        f"spacealert: internal error ({detail}). This is a bug in spacealert {__version__}; "
        f"please report it with the command you ran ({DEBUG_VARIABLE}=1 shows the traceback).\n")
    return EXIT_INTERNAL_ERROR


def _exit_code(code: Any) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _run(argv: list[str]) -> int:
    if argv == ["--version"]:
        from authoring._native import describe  # reads a few files: no engine import

        sys.stdout.write(f"spacealert {__version__}\n{describe()}\n")
        return 0
    from authoring.cli._app import app

    try:
        app(args=argv, prog_name="spacealert")
    except SystemExit as done:
        return _exit_code(done.code)
    return 0


def _exit_interrupted(code: int) -> None:
    # CPython ends a process by re-raising SIGINT on itself when it believes a KeyboardInterrupt
    # went unhandled, and code run through PyRun_* during an extension's import can leave that
    # belief behind even though main() handled the interrupt (seen as exit -2 instead of 130).
    # So end here, after the clean-up the interpreter's exit would do (atexit: multiprocessing,
    # weakref finalizers such as TemporaryDirectory's).
    import atexit

    with contextlib.suppress(BaseException):  # a clean-up cut short: exit all the same
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def main() -> None:
    """Runs the command line (the ``spacealert`` console script and ``python -m authoring``)."""
    global _finished
    code, _finished = 0, False
    _received.clear()
    try:
        _install_signal_handlers()
        _forget_script_path()
        code = _run(sys.argv[1:])
    except KeyboardInterrupt:
        if not _received:  # raised by Python itself, e.g. before the handlers were installed
            _received.append(signal.SIGINT)
    except Exception as error:
        from authoring.errors import AuthoringError

        if isinstance(error, AuthoringError):  # a command that forgot @reports_errors
            sys.stderr.write(f"error: {error.message}\n")
            code = error.exit_code
        else:
            code = _internal_error(error)
    finally:
        _finished = True
    if _received:
        code = 128 + _received[0]
        try:
            sys.stderr.write("interrupted\n")
            sys.stderr.flush()
        except OSError:
            pass
        _exit_interrupted(code)
    try:
        sys.stdout.flush()
    except OSError:  # a closed pipe (``spacealert … | head``): nothing more to say
        code = code or 1
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)


def __getattr__(name: str) -> Any:
    # ``from authoring.cli import app`` (tests, embedding) builds the Typer application on use.
    if name == "app":
        from authoring.cli._app import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
