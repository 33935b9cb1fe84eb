"""Random missions calibrated to the official tracks, and conversion to and from other tools."""

from __future__ import annotations

from authoring.generate.generator import (
    GENERATOR_VERSION,
    Generated,
    GenerationError,
    generate_mission,
)
from authoring.generate.interchange.mission_yaml import mission_yaml
from authoring.generate.options import GenerateOptions, check_options, parse_length, parse_range

__all__ = [
    "GENERATOR_VERSION",
    "GenerateOptions",
    "Generated",
    "GenerationError",
    "check_options",
    "generate_mission",
    "generated_text",
    "parse_length",
    "parse_range",
]


def generated_text(generated: Generated) -> str:
    """Returns the mission file text of a generated mission, with its provenance header."""
    options = generated.options
    header = [
        f"Generated mission: spacealert generate, generator v{GENERATOR_VERSION}, "
        f"seed {options.seed}.",
        f"Reproduce: {options.command_line()}",
        f"Threat points: {options.points()} including {options.unconfirmed_points()} "
        "of unconfirmed reports.",
    ]
    crew = options.crew
    if not crew.plays_unconfirmed and options.unconfirmed_points():
        header.append(f"With {crew.describe()} the unconfirmed reports are not played: "
                      f"the crew faces {options.points() - options.unconfirmed_points()} points.")
    header.append("Phase ends follow the official convention: the moment the countdown ends.")
    return mission_yaml(generated.mission, header, generated.notes)
