"""Space Alert mission and soundtrack authoring toolkit."""

__version__ = "0.1.0"
