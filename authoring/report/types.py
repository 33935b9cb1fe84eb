"""What formatters receive: a file's name, its text and its problems."""

from __future__ import annotations

from typing import Protocol

from authoring.lint.problem import Problem


class FileText(Protocol):
    """A linted file as the formatters see it (``authoring.lint.FileResult`` fits)."""

    @property
    def file(self) -> str:
        """The file name as given on the command line."""

    @property
    def problems(self) -> list[Problem]:
        """The file's problems, sorted."""

    @property
    def text(self) -> str:
        """The file's text, for source excerpts ("" when unreadable)."""
