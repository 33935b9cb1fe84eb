"""What makes two builds of the same pack byte-identical: one build date, sorted zips.

The build date comes from ``SOURCE_DATE_EPOCH`` (reproducible-builds.org) when it is set, else
from the newest input file, so that rebuilding unchanged files never changes a byte.
"""

from __future__ import annotations

import datetime
import io
import os
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from authoring.errors import UsageError

ENV_VAR = "SOURCE_DATE_EPOCH"
#: The earliest time a zip entry can carry (the DOS epoch).
ZIP_EPOCH = 315_532_800  # 1980-01-01T00:00:00Z
#: Already-compressed formats are stored, not deflated again.
STORED_SUFFIXES = frozenset({".mp3", ".ogg", ".pdf", ".zip", ".png", ".jpg"})


def build_epoch(inputs: Iterable[Path]) -> int:
    """Returns the build time in seconds: ``SOURCE_DATE_EPOCH`` or the newest input's mtime."""
    value = os.environ.get(ENV_VAR)
    if value is not None and value.strip():
        try:
            epoch = int(value)
        except ValueError:
            raise UsageError(f"{ENV_VAR}: expected whole seconds since 1970, got {value!r}"
                             ) from None
        if epoch < 0:
            raise UsageError(f"{ENV_VAR}: expected a non-negative number, got {value!r}")
        return epoch
    return max((int(p.stat().st_mtime) for p in inputs), default=ZIP_EPOCH)


def build_datetime(epoch: int) -> datetime.datetime:
    """Returns the build time as an aware UTC datetime."""
    return datetime.datetime.fromtimestamp(epoch, tz=datetime.UTC)


def zip_bytes(entries: Mapping[str, bytes], epoch: int) -> bytes:
    """Returns a zip archive of ``entries`` (name → bytes) that depends only on its inputs.

    Entries are sorted by name, every timestamp is the build time (clamped to 1980, the
    earliest a zip can hold), permissions are 0644 and the compression level is fixed.
    """
    stamp = build_datetime(max(epoch, ZIP_EPOCH)).timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = 0o100644 << 16
            info.create_system = 3  # unix, so the permissions above are honoured
            stored = Path(name).suffix.lower() in STORED_SUFFIXES
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            archive.writestr(info, entries[name], compresslevel=None if stored else 9)
    return buffer.getvalue()
