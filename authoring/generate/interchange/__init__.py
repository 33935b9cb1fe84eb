"""Format conversion between our mission files and the formats other Space Alert tools use.

Importers read JSAMG XML and text, Flash-player code, MartinAltmayer's scripts and paploo's
JSON transcriptions into ``Mission`` objects (checked against the mission contract, every
input error located as file:line:col); exporters write Flash-player code and JSAMG XML for
the players that read those. This package imports only the mission contract and the errors.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from authoring.errors import InvalidInputError
from authoring.generate.interchange.common import ImportFormatError
from authoring.generate.interchange.flash_code import parse_flash_code, to_flash_code
from authoring.generate.interchange.jsamg_text import parse_jsamg_text
from authoring.generate.interchange.jsamg_xml import parse_jsamg_xml, to_jsamg_xml
from authoring.generate.interchange.ma_script import parse_ma_script
from authoring.generate.interchange.mission_yaml import mission_yaml
from authoring.generate.interchange.ps_json import parse_ps_json
from authoring.mission.model import Mission, Profile

__all__ = [
    "EXPORTERS",
    "IMPORTERS",
    "ImportFormatError",
    "export_mission",
    "import_file",
    "import_text",
    "mission_yaml",
]

Importer = Callable[..., Mission]

#: Input formats: name -> reader of (text, source, profile=...).
IMPORTERS: Mapping[str, Importer] = {
    "jsamg-xml": parse_jsamg_xml,
    "jsamg-text": parse_jsamg_text,
    "flash-code": parse_flash_code,
    "ma-script": parse_ma_script,
    "ps-json": parse_ps_json,
}
#: Output formats: name -> writer.
EXPORTERS: Mapping[str, Callable[[Mission], str]] = {
    "flash-code": to_flash_code,
    "jsamg-xml": to_jsamg_xml,
}
MAX_INPUT_BYTES = 1024 * 1024


def import_text(text: str, fmt: str, source: str = "<input>", *,
                profile: Profile | None = None) -> Mission:
    """Converts ``text`` in format ``fmt`` into a mission; raises ``ImportFormatError``."""
    return IMPORTERS[fmt](text, source, profile=profile)


def read_text(path: Path, display: str | None = None) -> str:
    """Reads a UTF-8 text file of at most 1 MiB; raises ``InvalidInputError`` otherwise."""
    name = display or str(path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as error:
        raise InvalidInputError(f"{name}: cannot read the file: "
                                f"{(error.strerror or str(error)).lower()}") from None
    if len(raw) > MAX_INPUT_BYTES:
        raise InvalidInputError(f"{name}: file too large: more than {MAX_INPUT_BYTES} bytes")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise InvalidInputError(f"{name}: binary data (NUL byte at offset {nul}): expected a "
                                "text file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = error.start - (before.rfind(b"\n") + 1) + 1
        raise InvalidInputError(f"{name}:{line}:{col}: invalid UTF-8 byte "
                                f"0x{raw[error.start]:02x}: expected a UTF-8 text file",
                                hint="save the file as UTF-8") from None


def import_file(path: Path, fmt: str, *, profile: Profile | None = None,
                display: str | None = None) -> Mission:
    """Reads and converts the file at ``path``."""
    return import_text(read_text(path, display), fmt, display or str(path), profile=profile)


def export_mission(mission: Mission, fmt: str) -> str:
    """Returns ``mission`` written in the format ``fmt``."""
    return EXPORTERS[fmt](mission)
