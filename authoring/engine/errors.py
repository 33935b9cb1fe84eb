"""Errors raised by the engine for bad input; all are ``ValueError`` subclasses."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every engine input error (the CLI maps it to exit code 1)."""


class PlanError(EngineError):
    """Raised for a crew plan that cannot be played (unknown action, too many slots, …)."""


class SetupError(EngineError):
    """Raised for an impossible setup (unknown card, trajectory or zone, bad crew size)."""


class NotationError(EngineError):
    """Raised when a state notation line cannot be parsed."""
