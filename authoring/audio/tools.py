"""Finds the external programs the renderer needs and says how to install a missing one."""

from __future__ import annotations

import shutil

from authoring.errors import EnvironmentMissingError

INSTALL_HINTS = {
    "ffmpeg": "install it with `apt-get install ffmpeg` (Debian/Ubuntu) or `brew install ffmpeg`;"
              " WAV output works without it (--format wav)",
    "espeak-ng": "install it with `apt-get install espeak-ng` (Debian/Ubuntu) or "
                 "`brew install espeak-ng`",
    "flite": "install it with `apt-get install flite` (Debian/Ubuntu) or `brew install flite`;"
             " or render with another voice (--voice en-espeak)",
    "text2wave": "install Festival and its voice with `apt-get install festival "
                 "festvox-czech-machac` (Debian/Ubuntu); or render with an espeak-ng voice "
                 "(voices/README.md lists them)",
}
INSTALL_HINTS["festival"] = INSTALL_HINTS["text2wave"]


def require_program(name: str, purpose: str) -> str:
    """Returns the path of program ``name``; raises ``EnvironmentMissingError`` when missing."""
    found = shutil.which(name)
    if found is None:
        hint = INSTALL_HINTS.get(name, f"install {name} and put it on PATH")
        raise EnvironmentMissingError(f"{name} is not installed (needed {purpose})", hint=hint)
    return found
