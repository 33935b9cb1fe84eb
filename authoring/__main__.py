"""Runs the command line as ``python -m authoring`` (the same ``main`` as ``spacealert``)."""

from authoring.cli import main

if __name__ == "__main__":
    main()
