"""The toolkit's exception tree: every user-facing failure is an ``AuthoringError``.

The CLI maps each class to an exit code (``exit_code``) and prints ``str(error)`` plus the
optional hint; nothing below the CLI prints or exits.
"""

from __future__ import annotations


class AuthoringError(Exception):
    """Base of every error the toolkit reports to a user instead of a traceback."""

    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class InvalidInputError(AuthoringError):
    """A mission, plan, voice or other input file is wrong (exit 1)."""

    exit_code = 1


class UsageError(AuthoringError):
    """The command line asks for something impossible (exit 2)."""

    exit_code = 2


class GenerationError(UsageError):
    """The generator's options admit missions in principle but none was found for this seed.

    Defined here, not in the generator, so that the compiled generator (authoring/_native.py)
    raises the very same class.
    """


class EnvironmentMissingError(AuthoringError):
    """A program or package the command needs is not installed (exit 3)."""

    exit_code = 3
