"""Writes the C core's ``c/codes.h`` from ``codes.py``: ``python -m
authoring.engine.cores.write_codes``, then rebuild the C core (``python -m authoring._native
build``).

A module of its own, so that running it does not run ``codes`` a second time (the package
imports ``codes`` before ``-m`` would run it as ``__main__``).
"""

from __future__ import annotations

from authoring.engine.cores.codes import write_header

if __name__ == "__main__":
    raise SystemExit(write_header())
