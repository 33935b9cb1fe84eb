"""A local preview server for a built site, with HTTP Range support.

``python -m http.server`` answers every request with 200 and the whole file, which breaks
seeking in ``<audio>`` (Chromium snaps back to 0 and misreads Ogg durations). This handler
answers ``Range: bytes=…`` with 206 and ``Content-Range`` as RFC 9110 §14 describes: a
malformed Range header, another unit or several ranges are ignored (200, the whole file);
416 only for a well-formed range that starts past the end. It binds to 127.0.0.1 only: it is
a preview, not a host, shared by ``pack serve`` and ``play``.

Hardened against a hostile page or client on the same machine: nothing outside the site root
is served (symlinks are resolved and must stay inside), every request gets an HTTP answer
(400 for a malformed one, e.g. a NUL byte in the path), the listen backlog holds a burst of
hundreds of connections, and a half-sent request times out.
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
from typing import Any, Literal

HOST = "127.0.0.1"
#: Pending connections the kernel queues before accept (the standard library's 5 dropped most
#: of a 500-request burst; Linux caps this at net.core.somaxconn, 4096 by default).
BACKLOG = 1024
#: Seconds a client may take to send its request (and to accept each block of a response).
READ_TIMEOUT = 10.0
#: Digits beyond which a byte position is simply "larger than any file" (int() of 5,000 digits
#: raises in Python 3.11+, and no file has 10**19 bytes).
_MAX_DIGITS = 19
_HUGE = 10**_MAX_DIGITS
# RFC 9110 §14.1.2: range-unit "=" range-set; each range-spec is "first-[last]" or "-suffix".
_SPEC = re.compile(r"^(\d*)-(\d*)$")
_OWS = " \t"

RangeAnswer = tuple[int, int] | Literal["whole", "unsatisfiable"]


def _position(digits: str) -> int:
    """Returns a byte position, capped at a value larger than any file."""
    significant = digits.lstrip("0")
    return _HUGE if len(significant) > _MAX_DIGITS else int(significant or "0")


def parse_range(header: str, size: int) -> RangeAnswer:
    """Answers a ``Range`` header for a file of ``size`` bytes (RFC 9110 §14.1.2, §14.2).

    Returns the inclusive (first, last) byte of a single satisfiable range (a last byte past the
    end is clamped; ``bytes=-N`` is the last N bytes), ``"whole"`` when the header is to be
    ignored (malformed syntax, another unit, an invalid range-spec such as ``5-1``, or several
    ranges, which a server may answer with the whole file), or ``"unsatisfiable"`` (416) for a
    well-formed single range that selects nothing: it starts at or past the end, or is ``-0``.
    """
    unit, equals, range_set = header.strip(_OWS).partition("=")
    if not equals or unit.strip(_OWS).lower() != "bytes":
        return "whole"
    specs = [part.strip(_OWS) for part in range_set.split(",")]
    specs = [spec for spec in specs if spec]  # 1#range-spec allows empty list elements
    if len(specs) != 1:
        return "whole"
    match = _SPEC.match(specs[0])
    if match is None or match.group(0) == "-":
        return "whole"
    first_text, last_text = match.groups()
    if not first_text:  # suffix-range
        length = _position(last_text)
        if length == 0 or size == 0:
            return "unsatisfiable"
        return max(0, size - length), size - 1
    first = _position(first_text)
    last = _position(last_text) if last_text else size - 1
    if last_text and last < first:
        return "whole"  # an invalid range-spec: the header is ignored
    if first >= size:
        return "unsatisfiable"
    return first, min(last, size - 1)


def is_inside(path: str, root: str) -> bool:
    """Whether ``path``, with every symlink resolved, is ``root`` or below it."""
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


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

    # Before the request line is parsed the handler assumes HTTP/0.9, whose error answers carry
    # no status line; a garbled request still deserves "HTTP/1.0 400".
    default_request_version = "HTTP/1.0"

    def setup(self) -> None:
        # StreamRequestHandler applies ``timeout`` to the socket: a client that stops halfway
        # through its request is dropped instead of holding a thread forever.
        super().setup()
        self.connection.settimeout(getattr(self.server, "read_timeout", READ_TIMEOUT))
        self._answered = False

    def send_response(self, code: int, message: str | None = None) -> None:
        self._answered = True
        super().send_response(code, message)

    def end_headers(self) -> None:
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def parse_request(self) -> bool:
        """Parses the request line and headers; 400 for control characters, 408 on a timeout."""
        try:
            if not super().parse_request():
                return False
        except TimeoutError:
            self.send_error(HTTPStatus.REQUEST_TIMEOUT, "Request headers not received in time")
            return False
        if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in self.path):
            self.send_error(HTTPStatus.BAD_REQUEST, "Control character in the request target")
            return False
        return True

    def do_GET(self) -> None:
        self._answer(super().do_GET)

    def do_HEAD(self) -> None:
        self._answer(super().do_HEAD)

    def _answer(self, method: Any) -> None:
        """Runs ``method`` so that anything unexpected still gets an HTTP answer (500)."""
        try:
            method()
        except (ConnectionError, TimeoutError):
            raise
        except Exception as error:  # the preview must answer; the log says why
            self.log_error("internal error on %r: %r", self.path, error)
            if not self._answered:
                self.send_error(HTTPStatus.INTERNAL_SERVER_ERROR)
            self.close_connection = True

    def _refuse_outside(self, path: str) -> bool:
        """Answers 404 (and returns True) when ``path`` leads outside the site root."""
        root = os.path.realpath(self.directory)
        targets = [path]
        if os.path.isdir(path):  # the base class would serve the folder's index file
            targets += [os.path.join(path, name) for name in ("index.html", "index.htm")]
        if all(not os.path.lexists(t) or is_inside(t, root) for t in targets):
            return False
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")
        return True

    def send_head(self) -> Any:
        self._remaining: int | None = None
        path = self.translate_path(self.path)
        if "\x00" in path:  # a percent-encoded NUL: no file can have that name
            self.send_error(HTTPStatus.BAD_REQUEST, "NUL byte in the path")
            return None
        if self._refuse_outside(path):
            return None
        header = self.headers.get("Range")
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
            if span == "whole":
                handle.close()
                return super().send_head()
            if span == "unsatisfiable":
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
    request_queue_size = BACKLOG

    def __init__(self, root: Path, port: int = 8000, *, quiet: bool = False,
                 read_timeout: float = READ_TIMEOUT) -> None:
        handler = functools.partial(RangeRequestHandler, directory=str(root))
        super().__init__((HOST, port), handler)
        self.root = root
        self.quiet = quiet
        self.read_timeout = read_timeout

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Ignores clients that hang up mid-file (browsers abort media requests when seeking)
        or stop sending (the read timeout)."""
        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
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
