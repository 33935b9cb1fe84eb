"""The studio's local HTTP server: the page's static files and a small JSON API.

It is the hardened preview server of ``pack serve`` (``publish/serve.py``: 127.0.0.1 only,
no file outside its folder, symlinks resolved, NUL bytes and half-sent requests answered)
serving the studio's own ``static/`` folder, plus ``/api/…`` routes. Mission files are only
reached through the API, by names checked against the mission folder (``files.py``).

A page of another site must not drive the studio: every request must name this server in
``Host`` (a DNS-rebinding page names its own host), an ``Origin`` or a cross-site
``Sec-Fetch-Site`` of another site is refused, and bodies must be ``application/json`` (a
cross-origin form cannot send that without a preflight, which is never answered).

Routes (all JSON unless said otherwise; errors are ``{"error": …, "hint": …}`` with a 4xx):

* ``GET /api/session``: the folder, its files, the file opened first, the voices and version;
* ``GET /api/files``; ``GET /api/mission?file=F`` (text, token, checks, timeline);
* ``GET /api/status?file=F``: the token of the file on disk now (changes by other editors);
* ``POST /api/check`` ``{text}``; ``POST /api/edit`` ``{text, edit}``: the new text + checks;
* ``PUT /api/mission`` ``{file, text, token}``: atomic save, 409 when the file changed;
* ``POST /api/render`` ``{text, event | cue | from_ms, seconds}``: ``audio/wav``;
* ``POST /api/new`` ``{file, profile, players}`` or ``{file, generate: {…}}``;
* ``POST /api/rate`` ``{text, job?}``: the ``G`` rules and the simulated difficulty; with a
  ``job`` id, ``GET /api/rate/progress?job=J`` tells its games played of all while it runs
  and ``POST /api/rate/cancel`` ``{job}`` stops it (the answer then says ``cancelled``);
* ``GET /api/rule/CODE``: the rule's explanation (``spacealert rules CODE``);
* ``POST /api/testrun`` ``{text}``: the whole soundtrack rendered into the player page of
  ``spacealert play`` (crew view), served under ``/run/N/`` until the next test run.
"""

from __future__ import annotations

import functools
import json
import re
import threading
import traceback
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from authoring import __version__
from authoring.audio import ClipCache
from authoring.audio.voice import Voice, bundled_voices, load_voice
from authoring.errors import AuthoringError, UsageError
from authoring.mission.timeline import compile_timeline
from authoring.publish.serve import HOST, PreviewServer, RangeRequestHandler
from authoring.studio import document, listen, new
from authoring.studio.analysis import Checker, RatingCancelled
from authoring.studio.files import ConflictError, MissionFolder, NotFoundError

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body: a mission file (1 MiB) as JSON with some room.
MAX_BODY = 3 * 1024 * 1024
_SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; media-src 'self' blob:; "
                               "img-src 'self' data:; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class ApiError(Exception):
    """An answer other than 200, with a JSON body."""

    def __init__(self, status: HTTPStatus, message: str, hint: str | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.body: dict[str, Any] = {"error": message, "hint": hint, **extra}


class StudioHandler(RangeRequestHandler):
    """Static files of the page, and the API under ``/api/``."""

    server: StudioServer

    def end_headers(self) -> None:
        for name, value in _SECURITY_HEADERS.items():
            # the test-run pages are the pack site's own player (its policy is its own)
            if name != "Content-Security-Policy" or not getattr(self, "_site_page", False):
                self.send_header(name, value)
        super().end_headers()

    # --- request screening ---------------------------------------------------------------

    def _allowed_origin(self) -> bool:
        port = self.server.server_address[1]
        ours = {f"{HOST}:{port}", f"localhost:{port}"}
        if self.headers.get("Host", "") not in ours:
            return False
        origin = self.headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in ours}:
            return False
        return self.headers.get("Sec-Fetch-Site", "same-origin") in (
            "same-origin", "none")

    def _screen(self) -> bool:
        """Refuses (403) a request from another origin; True when it may go on."""
        if self._allowed_origin():
            return True
        self._send_json(HTTPStatus.FORBIDDEN, {
            "error": "refused: the studio answers its own page only (Host/Origin)",
            "hint": f"open {self.server.url}"})
        return False

    def do_GET(self) -> None:
        self._site_page = False
        if not self._screen():
            return
        if self.path.startswith("/api/"):
            self._api("GET")
            return
        if self.path.startswith("/run/"):
            self._serve_run()
            return
        if urlsplit(self.path).path in ("", "/"):
            self.path = "/index.html"
        super().do_GET()

    def _serve_run(self) -> None:
        """Serves the latest test run's site (the preview server's checks apply to it)."""
        run = self.server.run
        prefix = f"/run/{run[0]}/" if run else None
        if run is None or prefix is None or not self.path.startswith(prefix):
            self.send_error(HTTPStatus.NOT_FOUND, "No such test run (start a new one)")
            return
        self._site_page = True
        self.directory = str(run[1])
        self.path = "/" + self.path[len(prefix):]
        super().do_GET()

    def do_HEAD(self) -> None:
        if self._screen():
            super().do_HEAD()

    def do_POST(self) -> None:
        if self._screen():
            self._api("POST")

    def do_PUT(self) -> None:
        if self._screen():
            self._api("PUT")

    def do_DELETE(self) -> None:
        if self._screen():
            self._send_json(HTTPStatus.METHOD_NOT_ALLOWED, {"error": "method not allowed"})

    # --- answers -----------------------------------------------------------------------

    def _send_json(self, status: HTTPStatus, body: Any) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _send_bytes(self, data: bytes, content_type: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _body(self) -> dict[str, Any]:
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise ApiError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                           "the body must be JSON (Content-Type: application/json)")
        length_text = self.headers.get("Content-Length")
        if length_text is None or not length_text.isdigit():
            raise ApiError(HTTPStatus.LENGTH_REQUIRED, "a Content-Length is required")
        length = int(length_text)
        if length > MAX_BODY:
            raise ApiError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                           f"the body is larger than {MAX_BODY} bytes")
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as error:
            raise ApiError(HTTPStatus.BAD_REQUEST, f"the body is not JSON: {error}") from None
        if not isinstance(body, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return body

    def _api(self, method: str) -> None:
        url = urlsplit(self.path)
        route = self.server.routes.get((method, url.path))
        if route is None and method == "GET" and url.path.startswith("/api/rule/"):
            route = self.server.rule
        try:
            if route is None:
                known = any(path == url.path for _, path in self.server.routes)
                raise ApiError(HTTPStatus.METHOD_NOT_ALLOWED if known else HTTPStatus.NOT_FOUND,
                               f"no route {method} {url.path}")
            query = {k: v[-1] for k, v in parse_qs(url.query).items()}
            body = self._body() if method in ("POST", "PUT") else {}
            result = route(self, query, body)
        except ApiError as error:
            self._send_json(error.status, error.body)
            return
        except ConflictError as error:
            self._send_json(HTTPStatus.CONFLICT,
                            {"error": error.message, "hint": error.hint, "token": error.token})
            return
        except NotFoundError as error:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": error.message, "hint": error.hint})
            return
        except AuthoringError as error:  # bad input: a usage error or an invalid value
            status = HTTPStatus.BAD_REQUEST if isinstance(error, UsageError) \
                else HTTPStatus.UNPROCESSABLE_ENTITY
            self._send_json(status, {"error": error.message, "hint": error.hint})
            return
        except (ConnectionError, TimeoutError):
            raise
        except Exception as error:  # a bug: answer, and say so in the terminal
            self.log_error("internal error on %s %s: %s", method, url.path,
                           "".join(traceback.format_exception(error)))
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR,
                            {"error": f"internal error ({type(error).__name__}); this is a bug",
                             "hint": "the terminal running spacealert studio shows details"})
            return
        if isinstance(result, bytes):
            self._send_bytes(result, "audio/wav")
        else:
            self._send_json(HTTPStatus.OK, result)


Route = Callable[[StudioHandler, dict[str, str], dict[str, Any]], Any]
#: A rating job's id, chosen by the page.
_JOB = re.compile(r"[A-Za-z0-9]{1,40}")


class Ratings:
    """The ratings running now, by job id: their progress, and whether the page cancelled.

    A rating runs in the thread of its ``POST /api/rate``; the page asks how far it is and
    may cancel it in other requests (the server answers each in a thread of its own).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._jobs: dict[str, dict[str, Any]] = {}

    def start(self, job: str) -> dict[str, Any]:
        with self._lock:
            state = self._jobs[job] = {"done": 0, "total": 0, "crew": "", "cancelled": False,
                                       "running": True}
            return state

    def finish(self, job: str) -> None:
        with self._lock:
            self._jobs.pop(job, None)

    def get(self, job: str) -> dict[str, Any]:
        with self._lock:
            state = self._jobs.get(job)
            return dict(state) if state else {"running": False}

    def cancel(self, job: str) -> dict[str, Any]:
        with self._lock:
            state = self._jobs.get(job)
            if state:
                state["cancelled"] = True
            return {"cancelled": state is not None}


def _text(body: dict[str, Any]) -> str:
    text = body.get("text")
    if not isinstance(text, str):
        raise ApiError(HTTPStatus.BAD_REQUEST, "'text': expected the mission's YAML text")
    return text


def _int(body: dict[str, Any], key: str, low: int, high: int) -> int | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(HTTPStatus.BAD_REQUEST, f"'{key}': expected a whole number {low}-{high}")
    return value


class StudioServer(PreviewServer):
    """The studio on 127.0.0.1: one mission folder, one voice, one clip cache."""

    def __init__(self, folder: Path, voice: Voice, *, first: str | None = None,
                 port: int = 0, cache_dir: Path | None = None, quiet: bool = False) -> None:
        self.folder = MissionFolder(folder)
        self.first = first
        self.voice = voice
        self.voices: dict[str, Voice] = {voice.id: voice}  # loaded on first use
        self.cache_dir = cache_dir
        self.checker = Checker(self.folder.root, voice, cache_dir)
        self.audio_lock = threading.Lock()  # one synthesis at a time (2-core machines)
        # before the socket is bound: a failed bind calls server_close(), which reads it
        self.run: tuple[int, Path] | None = None  # the latest test run: number and folder
        self.runs = 0
        self.ratings = Ratings()
        super().__init__(STATIC, port, quiet=quiet)
        self.RequestHandlerClass = functools.partial(
            StudioHandler, directory=str(STATIC))
        self.routes: dict[tuple[str, str], Route] = {
            ("GET", "/api/session"): StudioServer.session,
            ("GET", "/api/files"): StudioServer.files,
            ("GET", "/api/mission"): StudioServer.mission,
            ("PUT", "/api/mission"): StudioServer.save,
            ("GET", "/api/status"): StudioServer.status,
            ("POST", "/api/check"): StudioServer.check,
            ("POST", "/api/edit"): StudioServer.edit,
            ("POST", "/api/render"): StudioServer.render,
            ("POST", "/api/new"): StudioServer.create,
            ("POST", "/api/rate"): StudioServer.rate,
            ("GET", "/api/rate/progress"): StudioServer.rate_progress,
            ("POST", "/api/rate/cancel"): StudioServer.rate_cancel,
            ("POST", "/api/testrun"): StudioServer.testrun,
        }

    # Routes are called as route(handler, query, body); ``handler.server`` is self.

    @staticmethod
    def session(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        s = h.server
        return {"folder": str(s.folder.root), "files": s.folder.files(), "first": s.first,
                "voice": {"id": s.voice.id, "name": s.voice.name},
                "voices": sorted({s.voice.id, *bundled_voices()}), "version": __version__}

    @staticmethod
    def files(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        return {"files": h.server.folder.files()}

    @staticmethod
    def mission(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        name = query.get("file")
        text, token = h.server.folder.read(name)
        return {"file": name, "text": text, "token": token,
                **h.server.analyse(text, str(name), measured=query.get("lengths") != "nominal",
                                   voice=query.get("voice"))}

    @staticmethod
    def status(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        return {"file": query.get("file"), "token": h.server.folder.current_token(
            query.get("file"))}

    @staticmethod
    def check(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        return h.server.analyse(_text(body), str(body.get("file") or "mission.yaml"),
                                measured=body.get("lengths") != "nominal",
                                voice=body.get("voice"))

    @staticmethod
    def edit(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        edit = body.get("edit")
        if not isinstance(edit, dict):
            raise ApiError(HTTPStatus.BAD_REQUEST, "'edit': expected an object with an 'op'")
        text, index = document.apply_edit(_text(body), edit)
        return {"text": text, "index": index,
                **h.server.analyse(text, str(body.get("file") or "mission.yaml"),
                                   measured=body.get("lengths") != "nominal",
                                   voice=body.get("voice"))}

    @staticmethod
    def save(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        token = body.get("token")
        if not isinstance(token, str):
            raise ApiError(HTTPStatus.BAD_REQUEST,
                           "'token': expected the token of the version that was loaded")
        new_token = h.server.folder.save(body.get("file"), _text(body), token)
        return {"file": body.get("file"), "token": new_token}

    @staticmethod
    def render(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        from authoring.mission import InvalidFileError, check_mission, parse_document

        s = h.server
        mission, problems = check_mission(parse_document(_text(body), "mission.yaml"))
        if mission is None:
            raise InvalidFileError(problems)
        timeline = compile_timeline(mission)
        event = _int(body, "event", 0, 10_000)
        cue = _int(body, "cue", 0, 100_000)
        from_ms = _int(body, "from_ms", 0, 3_600_000)
        seconds = _int(body, "seconds", 1, listen.MAX_EXCERPT_MS // 1000)
        if (event is None) + (cue is None) + (from_ms is None) != 2:
            raise ApiError(HTTPStatus.BAD_REQUEST, "give one of 'event', 'cue' or 'from_ms'")
        if from_ms is not None:
            part = listen.from_excerpt(timeline, from_ms, (seconds or 60) * 1000)
        else:
            part = listen.cue_excerpt(timeline, event=event, cue=cue)
        cache = ClipCache(s.cache_dir) if s.cache_dir else None
        voice = s.voice_for(body.get("voice"))
        with s.audio_lock:
            return listen.render_wav(part, voice, cache, bed=from_ms is not None)

    @staticmethod
    def create(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        name = body.get("file")
        h.server.folder.resolve(name, must_exist=False)  # refuse a bad name before any work
        options = body.get("generate")
        if options is not None:
            if not isinstance(options, dict):
                raise ApiError(HTTPStatus.BAD_REQUEST, "'generate': expected an object")
            text = new.generated(options)
        else:
            stem = str(name).rsplit("/", 1)[-1].rsplit(".", 1)[0].lower()
            mission_id = "".join(c if c.isalnum() else "-" for c in stem).strip("-") or "mission"
            text = new.template(mission_id, body.get("profile", "base"), body.get("players", 5))
        token = h.server.folder.create(name, text)
        return {"file": name, "token": token, "files": h.server.folder.files()}

    @staticmethod
    def rate(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        job = body.get("job")
        if job is None:
            return h.server.checker.rate(_text(body), "mission.yaml")
        if not isinstance(job, str) or not _JOB.fullmatch(job):
            raise ApiError(HTTPStatus.BAD_REQUEST, "'job': expected 1-40 letters or digits")
        state = h.server.ratings.start(job)

        def told(done: int, total: int, crew: str) -> None:
            state.update(done=done, total=total, crew=crew)
            if state["cancelled"]:
                raise RatingCancelled

        try:
            return h.server.checker.rate(_text(body), "mission.yaml", progress=told)
        finally:
            h.server.ratings.finish(job)

    @staticmethod
    def rate_progress(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        """How far the rating ``job`` is: games played of all (the page polls it)."""
        return h.server.ratings.get(query.get("job", ""))

    @staticmethod
    def rate_cancel(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        """Stops the rating ``job`` after its current chunk of games."""
        return h.server.ratings.cancel(str(body.get("job", "")))

    @staticmethod
    def rule(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        from authoring.lint import VALIDATOR_CODES, all_rules

        code = urlsplit(h.path).path.rsplit("/", 1)[-1].upper()
        rules = all_rules()
        if code in rules:
            rule = rules[code]
            return {"code": code, "name": rule.name, "severity": rule.severity, "doc": rule.doc}
        if code in VALIDATOR_CODES:
            name, doc = VALIDATOR_CODES[code]
            return {"code": code, "name": name, "severity": "error", "doc": doc}
        raise ApiError(HTTPStatus.NOT_FOUND, f"no rule {code!r}",
                       hint="spacealert rules lists every code")

    @staticmethod
    def testrun(h: StudioHandler, query: dict[str, str], body: dict[str, Any]) -> Any:
        import shutil

        from authoring._files import new_scratch_folder
        from authoring.mission import InvalidFileError, check_mission, parse_document
        from authoring.publish.play import AUTOPLAY, prepare

        s = h.server
        mission, problems = check_mission(parse_document(_text(body), "mission.yaml"))
        if mission is None:
            raise InvalidFileError(problems)
        cache = ClipCache(s.cache_dir) if s.cache_dir else None
        voice = s.voice_for(body.get("voice"))
        root = new_scratch_folder("play")  # named after this process: a killed studio's is swept
        try:
            with s.audio_lock:
                site = prepare(mission, voice, root, cache)
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        with s.audio_lock:
            old, s.runs = s.run, s.runs + 1
            s.run = (s.runs, root)
        if old is not None:
            shutil.rmtree(old[1], ignore_errors=True)
        return {"url": f"/run/{s.runs}/{site.page}{AUTOPLAY}", "title": site.title}

    def server_close(self) -> None:
        """Closes the socket and removes the latest test run's folder."""
        import shutil

        super().server_close()
        if self.run is not None:
            shutil.rmtree(self.run[1], ignore_errors=True)
            self.run = None

    def voice_for(self, chosen: object) -> Voice:
        """The voice a request names (a bundled voice id), or the studio's own."""
        if chosen in (None, "") or chosen == self.voice.id:
            return self.voice
        if not isinstance(chosen, str) or chosen not in bundled_voices():
            raise ApiError(HTTPStatus.BAD_REQUEST, f"'voice': no bundled voice {chosen!r}",
                           hint="spacealert voices list shows them")
        with self.audio_lock:
            if chosen not in self.voices:
                self.voices[chosen] = load_voice(chosen)
            return self.voices[chosen]

    def analyse(self, text: str, display: str, *, measured: bool,
                voice: object = None) -> dict[str, Any]:
        """The checks of ``text`` (measuring clip lengths takes the audio lock)."""
        chosen = self.voice_for(voice)
        if not measured:
            return self.checker.check(text, display, measured=False, voice=chosen)
        with self.audio_lock:
            return self.checker.check(text, display, measured=True, voice=chosen)
