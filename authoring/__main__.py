"""Runs the command line as ``python -m authoring``."""

from authoring.cli import main

main()
