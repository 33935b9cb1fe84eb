"""A local preview server for a built site, with HTTP Range support.

``python -m http.server`` answers every request with 200 and the whole file, which breaks
seeking in ``<audio>`` (Chromium snaps back to 0 and misreads Ogg durations). This handler
answers ``Range: bytes=…`` with 206 and ``Content-Range``, and 416 for ranges it cannot
satisfy. It binds to 127.0.0.1 only: it is a preview, not a host.
"""

from __future__ import annotations

import functools
import os
import re
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"
_RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")


def parse_range(header: str, size: int) -> tuple[int, int] | None:
    """Returns the inclusive (first, last) byte of a single ``bytes=`` range, or ``None``.

    ``None`` means the range cannot be satisfied (malformed, several ranges, or starting past
    the end): the caller answers 416. Suffix ranges (``bytes=-500``) and open ends
    (``bytes=100-``) are supported; a last byte past the end is clamped.
    """
    match = _RANGE.match(header.strip())
    if match is None:
        return None
    first_text, last_text = match.groups()
    if not first_text:
        if not last_text or int(last_text) == 0 or size == 0:
            return None
        return max(0, size - int(last_text)), size - 1
    first = int(first_text)
    last = int(last_text) if last_text else size - 1
    if first >= size or last < first:
        return None
    return first, min(last, size - 1)


class RangeRequestHandler(SimpleHTTPRequestHandler):
    """Serves files like ``SimpleHTTPRequestHandler`` and answers byte ranges with 206."""

    # The base class declares extensions_map as a plain class attribute; extend it likewise.
    extensions_map = {  # noqa: RUF012
        **SimpleHTTPRequestHandler.extensions_map,
        ".vtt": "text/vtt", ".srt": "text/plain", ".ogg": "audio/ogg", ".mp3": "audio/mpeg",
        ".wav": "audio/wav", ".js": "text/javascript", ".yaml": "text/yaml",
    }

    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "quiet", False):
            return
        super().log_message(format, *args)

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self) -> Any:
        self._remaining: int | None = None
        header = self.headers.get("Range")
        path = self.translate_path(self.path)
        if header is None or os.path.isdir(path):
            return super().send_head()
        try:
            handle = open(path, "rb")  # noqa: SIM115  (returned to the base class, which closes it)
        except OSError:
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        try:
            size = os.fstat(handle.fileno()).st_size
            span = parse_range(header, size)
            if span is None:
                handle.close()
                self.send_response(HTTPStatus.REQUESTED_RANGE_NOT_SATISFIABLE)
                self.send_header("Content-Range", f"bytes */{size}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            first, last = span
            self.send_response(HTTPStatus.PARTIAL_CONTENT)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
            self.send_header("Content-Length", str(last - first + 1))
            self.end_headers()
            handle.seek(first)
            self._remaining = last - first + 1
            return handle
        except BaseException:
            handle.close()
            raise

    def copyfile(self, source: Any, outputfile: Any) -> None:
        remaining = getattr(self, "_remaining", None)
        if remaining is None:
            super().copyfile(source, outputfile)
            return
        self._remaining = None
        while remaining > 0:
            chunk = source.read(min(64 * 1024, remaining))
            if not chunk:
                break
            outputfile.write(chunk)
            remaining -= len(chunk)


class PreviewServer(ThreadingHTTPServer):
    """A threading HTTP server bound to 127.0.0.1 that serves one folder."""

    daemon_threads = True

    def __init__(self, root: Path, port: int = 8000, *, quiet: bool = False) -> None:
        handler = functools.partial(RangeRequestHandler, directory=str(root))
        super().__init__((HOST, port), handler)
        self.root = root
        self.quiet = quiet

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignores clients that hang up mid-file (browsers abort media requests when seeking)."""
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)

    @property
    def url(self) -> str:
        """Returns the base URL the server answers on."""
        return f"http://{HOST}:{self.server_address[1]}/"

    def start_in_background(self) -> threading.Thread:
        """Serves from a daemon thread (for tests and embedding); stop with ``shutdown()``."""
        thread = threading.Thread(target=self.serve_forever, name="pack-preview", daemon=True)
        thread.start()
        return thread
