"""Reads the threat card faces from the engine's packaged threat data."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from authoring.errors import EnvironmentMissingError
from authoring.render.cards import CardFace, text_or_dash


def _face(raw: dict[str, Any]) -> CardFace:
    printed = raw.get("printed") or {}

    def value(key: str) -> str:
        return text_or_dash(printed.get(key, raw.get(key)))

    return CardFace(
        id=raw["id"], name=raw["name"], kind=raw["kind"],
        serious=raw["severity"] == "serious", colour=raw["colour"],
        health=value("health"), shield=value("shield"), speed=value("speed"),
        x=text_or_dash(raw.get("x_text")), y=text_or_dash(raw.get("y_text")),
        z=text_or_dash(raw.get("z_text")),
        special=raw.get("special_rules") or "", start=raw.get("start_text") or "",
        points_survived=value("points_survived"), points_destroyed=value("points_destroyed"),
        set=raw.get("set", "base"),
    )


@cache
def load_faces() -> dict[str, CardFace]:
    """Returns every threat card face by id, read once per process."""
    try:
        text = resources.files("authoring.engine").joinpath("data/threats.json").read_text(
            "utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as error:
        raise EnvironmentMissingError(
            f"the threat card data is missing from this installation ({error})",
            hint="reinstall spacealert-authoring; the card data ships as "
                 "authoring/engine/data/threats.json") from None
    return {face.id: face for face in map(_face, json.loads(text)["cards"])}
