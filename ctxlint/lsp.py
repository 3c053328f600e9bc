"""The ctxlint language server (`ctxlint lsp`, stdio), built on pygls.

What an editor gets:

- Diagnostics for Python, Go and Jinja documents on open, on change (debounced,
  50 ms by default, leading edge: a change after a quiet spell is linted at
  once, a burst of keystrokes is linted once after it settles) and on save. The unsaved buffer is what gets linted: the
  server hands the document text to `ctxlint.engine.lint_text`, the same entry
  point `ctxlint check` uses, so rules, suppressions, per-file ignores and the
  project's `[tool.ctxlint]` settings (nearest pyproject.toml/ctxlint.toml above
  the file) behave exactly as on the command line. Each diagnostic carries the
  code, the rule name, a `codeDescription` link to the rule's documentation (a
  markdown file written once per rule under the user cache directory), a
  severity and the range.
- Quick-fix code actions from the findings' fixes: one per fixable finding and
  one "fix all in file": a `quickfix`, or `source.fixAll.ctxlint` (fix-on-save)
  when the client asks for that kind, never both in one answer. Text-edit fixes (Go, Jinja) are applied here; Python fixes are
  libcst codemods applied by `ctxlint.fixers.fix_text`. Unsafe fixes are offered
  only when the `unsafe-fixes` setting is true.
- Settings from `initializationOptions` and `workspace/didChangeConfiguration`,
  either `{"ctxlint": {...}}` or the inner table, in the config file's key space
  (`select`, `ignore`, `extend-select`, `scope-ids`, `per-file-ignores`, ...), plus
  the server's own `unsafe-fixes` (bool) and `debounce-ms` (int).

Bad input from the client: a request whose params do not match the protocol
(a negative Position, `"textDocument": 5`) is answered with InvalidParams
(-32602), a body that is not JSON with a parse error (-32700, id null); a
didChange for a document that was never opened (or was closed) is ignored with
one log line. None of these shows an error dialog or a traceback. Framing is the
server's own (`FrameDecoder`): a Content-Length that is not a number, is missing,
exceeds MAX_CONTENT_LENGTH or does not match the body is logged and skipped, and
the next frame is found (LF-only headers are read). A request for an unknown
method gets MethodNotFound (-32601); after `shutdown` every request but `exit`
gets InvalidRequest (-32600), as LSP 3.17 says. pygls's bookkeeping of
notification futures is dropped as each completes (no growth per didChange).

Positions: findings count lines from 1 and columns from 1 (UTF-8 bytes for
Python and Go, characters for Jinja); the server converts to LSP positions in
the encoding negotiated with the client (UTF-16 unless the client offers
another), through pygls's position codec.

Model: ruff's server (diagnostics + quick fixes + fixAll from one engine) and
the LSP 3.17 specification (textDocument/publishDiagnostics, codeAction).
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import re
import sys
import threading
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method
from pygls.uris import from_fs_path, to_fs_path

from ctxlint import __version__
from ctxlint.findings import SAFE, Edit, Finding

log = logging.getLogger("ctxlint.lsp")

#: LSP languageId -> ctxlint language.
LANGUAGE_IDS = {
    "python": "python",
    "go": "go",
    "jinja": "jinja", "jinja2": "jinja", "jinja-html": "jinja", "j2": "jinja", "htmldjango": "jinja",
}
DEFAULT_DEBOUNCE_S = 0.05
FIX_ALL_KIND = "source.fixAll.ctxlint"
SERVER_KEYS = ("unsafe-fixes", "debounce-ms")


@dataclass
class LintState:
    """The last lint of one document version: what code actions are built from."""

    version: int | None
    text: str  # LF-normalised, BOM-less: the text the rules and fixes saw
    language: str
    path: str
    findings: list[Finding] = field(default_factory=list)
    rules: list | None = None  # the selected rules and Config the lint ran with (for fix re-lints)
    config: Any = None


#: The largest body a frame may declare (bytes). A larger Content-Length is a bad
#: frame: skipped, never allocated (`FrameDecoder`).
MAX_CONTENT_LENGTH = 128 * 2**20
#: The longest header section the server waits for before it gives up on it.
MAX_HEADER_BYTES = 8192

_HEADER_END = re.compile(rb"\r?\n\r?\n")
_CONTENT_LENGTH = b"content-length:"
_HEADER_LINE = re.compile(rb"^[!-9;-~]+:[^\r\n]*\r?$")


class FrameDecoder:
    """Split the LSP base protocol's byte stream into message bodies, recovering
    from bad frames (LSP 3.17, "Base Protocol": header lines, an empty line, then
    `Content-Length` bytes of body).

    `feed(data)` returns a list of `("body", bytes)` and `("error", str)` items in
    stream order. Nothing a client sends can make it allocate more than
    MAX_CONTENT_LENGTH + MAX_HEADER_BYTES or stop finding frames:

    - header lines may end in CRLF or a bare LF;
    - a header section without a Content-Length, or whose value is not a decimal
      number of at most MAX_CONTENT_LENGTH, is an error: the decoder skips to the
      next `Content-Length:` header (the bad frame's body is skipped as junk);
    - junk before a `Content-Length:` header (the rest of a frame whose declared
      length was too short) is skipped with an error;
    - a declared length longer than the body is detected when the next frame's
      header arrives after a complete JSON value: that value is the body.

    Model: the framing of LSP 3.17 and the resynchronisation of an HTTP/1.1
    parser that drops a malformed message and reads on.
    """

    def __init__(self, max_body: int = MAX_CONTENT_LENGTH, max_header: int = MAX_HEADER_BYTES):
        self.max_body, self.max_header = max_body, max_header
        self.buf = bytearray()
        self.need: int | None = None  # body length while a body is being read
        self.scanned = 0  # body bytes already searched for a following header
        self.junk_reported = False

    def feed(self, data: bytes) -> list[tuple[str, Any]]:
        """Take the next bytes of the stream; return the bodies and errors now complete."""
        self.buf += data
        out: list[tuple[str, Any]] = []
        while True:
            if self.need is not None:
                if not self._body(out):
                    return out
            elif not self._header(out):
                return out

    def _header(self, out: list) -> bool:
        m = _HEADER_END.search(self.buf)
        if m is None:
            if len(self.buf) > self.max_header:
                # No end of headers in sight: keep only what may start a Content-Length header.
                k = self.buf.lower().find(_CONTENT_LENGTH, 1)
                cut = k if k > 0 else len(self.buf) - len(_CONTENT_LENGTH)
                if not self.junk_reported:
                    out.append(("error", f"skipped {cut} bytes that are not an LSP header"))
                    self.junk_reported = True
                del self.buf[:cut]
            return False
        block = bytes(self.buf[:m.start()])
        del self.buf[:m.end()]
        low = block.lower()
        k = low.rfind(_CONTENT_LENGTH)
        if k < 0:
            if block.strip():
                out.append(("error", f"a header without Content-Length ({_shorten(block)}): frame skipped"))
            return True
        line_start = max(block.rfind(b"\n", 0, k) + 1, 0)
        junk = [ln for ln in block[:line_start].split(b"\n") if ln.strip() and not _HEADER_LINE.match(ln)]
        if block[line_start:k].strip():
            junk.append(block[line_start:k])
        if junk:
            out.append(("error", f"skipped {sum(map(len, junk))} bytes before a header ({_shorten(junk[0])})"))
        line_end = block.find(b"\n", k)
        value = block[k + len(_CONTENT_LENGTH): line_end if line_end >= 0 else len(block)].strip()
        if not value.isdigit() or len(value) > 12 or int(value) > self.max_body:
            out.append(("error", f"bad Content-Length {_shorten(value)!s}: frame skipped "
                                 f"(a number of at most {self.max_body} bytes expected)"))
            return True
        self.need, self.scanned, self.junk_reported = int(value), 0, False
        return True

    def _body(self, out: list) -> bool:
        need = self.need
        # A declared length longer than the body: the next frame's header follows a
        # complete JSON value within the declared length. Search only bytes not
        # searched before.
        end = min(len(self.buf), need)
        low = bytes(self.buf[:end]).lower()
        k = low.find(_CONTENT_LENGTH, max(self.scanned - len(_CONTENT_LENGTH), 0))
        while k >= 0:
            head = bytes(self.buf[:k])
            try:
                json.loads(head)
            except ValueError:
                k = low.find(_CONTENT_LENGTH, k + 1)
                continue
            out.append(("error", f"Content-Length {need} is longer than the body ({k} bytes)"))
            out.append(("body", head))
            del self.buf[:k]
            self.need = None
            return True
        self.scanned = end
        if len(self.buf) >= need:
            out.append(("body", bytes(self.buf[:need])))
            del self.buf[:need]
            self.need = None
            return True
        return False

    def pending(self) -> int:
        """Bytes held: a partial header or body (what a truncated stream leaves)."""
        return len(self.buf)


def _shorten(b: bytes, n: int = 40) -> str:
    text = b[:n].decode("ascii", "backslashreplace")
    return text + ("..." if len(b) > n else "")


class _Dropped:
    """What `CtxlintProtocol.structure_message` returns for a message it answered or dropped."""

    jsonrpc = None


DROPPED = _Dropped()


class CtxlintProtocol(LanguageServerProtocol):
    """pygls's LSP protocol, strict about what it cannot read.

    pygls raises out of its JSON hook when params do not deserialise, so the
    request is never answered and the client waits forever; here such a request
    gets InvalidParams (-32602) and a notification is dropped with one log line.
    A didChange for a document the server does not hold is ignored (pygls would
    raise KeyError and show "Error in server" to the user).
    """

    def structure_message(self, data):
        """Deserialise one JSON object (pygls's `json.loads` object hook); see the class doc.

        A request for a method the server does not know gets MethodNotFound (-32601)
        whatever its params (pygls answers one without params with InvalidParams);
        a notification for an unknown method is dropped (JSON-RPC 2.0, LSP 3.17)."""
        if isinstance(data, dict) and "jsonrpc" in data and isinstance(data.get("method"), str) \
                and "error" not in data and not self._known_method(data["method"]):
            if "id" in data:
                from pygls.exceptions import JsonRpcMethodNotFound
                self._send_response(data["id"], error=JsonRpcMethodNotFound.of(data["method"]).to_response_error())
            else:
                log.info("ignoring notification for unknown method %r", data["method"])
            return DROPPED
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not isinstance(data, dict) or "method" not in data:
                raise
            cause = exc.__cause__
            detail = str(cause).splitlines()[0] if cause is not None and str(cause) else type(exc).__name__
            if "id" in data:
                err = JsonRpcInvalidParams(f"invalid params for {data.get('method')}: {detail}")
                self._send_response(data["id"], error=err.to_response_error())
            else:
                log.warning("ignoring %s notification with invalid params: %s", data.get("method"), detail)
            return DROPPED

    def _known_method(self, method: str) -> bool:
        return (method in self.fm.builtin_features or method in self.fm.features
                or method == "$/cancelRequest" or method == types.EXIT)

    def handle_message(self, message):
        """Dispatch a message; one that `structure_message` already answered is skipped.

        After `shutdown`, a request other than `exit` is answered with InvalidRequest
        (-32600) and a notification is dropped (LSP 3.17, "Shutdown Request": "If a
        server receives requests after a shutdown request those requests should
        error with InvalidRequest"); pygls would drop the request unanswered."""
        if message is DROPPED:
            return None
        method = getattr(message, "method", None)
        if self._shutdown and method != types.EXIT and method is not None:
            msg_id = getattr(message, "id", None)
            if msg_id is not None:
                from pygls.exceptions import JsonRpcInvalidRequest
                err = JsonRpcInvalidRequest(f"the server is shut down: {method} not served")
                self._send_response(msg_id, error=err.to_response_error())
            return None
        return super().handle_message(message)

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        """pygls's handler runner, forgetting each handler's future once it is done.

        pygls 2.x files the future of every notification handler (and of every step
        of a generator handler, such as its own didChange) in `_request_futures`
        under a fresh uuid and never removes it: ~2.8 KB per didChange, without
        bound. Requests remove theirs when answered; this removes the rest."""
        def done(future):
            if self._request_futures.get(msg_id) is future:
                self._request_futures.pop(msg_id, None)
            callback(future)
        return super()._execute_handler(msg_id, handler, done, args, kwargs)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """Apply the changes of an open document; a change for any other URI is logged and ignored."""
        if params.text_document.uri not in self.workspace.text_documents:
            log.warning("ignoring didChange for %s: the document is not open", params.text_document.uri)
            return None
        return (yield from super().lsp_text_document__did_change(params))


class CtxlintLanguageServer(LanguageServer):
    """pygls server holding settings, per-directory config and per-document lint state."""

    def __init__(self) -> None:
        super().__init__("ctxlint", __version__, protocol_cls=CtxlintProtocol,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.overrides: dict[str, Any] = {}
        self.unsafe_fixes = False
        self.debounce_s = DEFAULT_DEBOUNCE_S
        self.states: dict[str, LintState] = {}
        self.pending: dict[str, asyncio.Task] = {}
        self.last_change: dict[str, float] = {}
        self.in_flight: set[str] = set()
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ctxlint-lint")
        self._configs: dict[str, tuple] = {}
        self._reported: set[str] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._frozen = False

    def start_io(self, stdin=None, stdout=None) -> None:
        """Serve on stdin/stdout until `exit` or the end of input.

        pygls's reader allocates whatever Content-Length says (`99999999999999`:
        MemoryError, the server dies) and, after one malformed header, never
        matches a frame again. Here a daemon thread reads what arrives, a
        `FrameDecoder` cuts it into bodies (bad frames are logged and skipped) and
        the event loop dispatches each body as pygls would."""
        from pygls.io_ import StdoutWriter
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(self._serve(stdin or sys.stdin.buffer))
        except BrokenPipeError:
            log.error("the connection to the client is lost; shutting down")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()

    async def _serve(self, stream) -> None:
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue = asyncio.Queue(maxsize=64)
        try:
            # The file descriptor, not the buffered object: a daemon thread blocked in
            # BufferedReader.read1 holds its lock, and interpreter shutdown aborts on it.
            fd = stream.fileno()
            read = lambda n: os.read(fd, n)  # noqa: E731
        except (AttributeError, OSError, ValueError):
            read = getattr(stream, "read1", None) or stream.read

        def pump() -> None:  # a daemon thread: a blocked read never holds up exit
            while True:
                try:
                    data = read(65536)
                except (OSError, ValueError):
                    data = b""
                try:
                    asyncio.run_coroutine_threadsafe(chunks.put(data), loop).result()
                except BaseException:  # noqa: BLE001 - the loop is closed or cancelled: the server is done
                    return
                if not data:
                    return

        threading.Thread(target=pump, name="ctxlint-lsp-reader", daemon=True).start()
        decoder = FrameDecoder()
        while not self._stop_event.is_set():
            data = await chunks.get()
            if not data:
                if decoder.pending():
                    log.warning("input ended inside a frame (%d bytes unread)", decoder.pending())
                return
            for kind, item in decoder.feed(data):
                if kind == "error":
                    log.warning("ctxlint server: bad frame: %s", item)
                    continue
                try:
                    message = json.loads(item, object_hook=self.protocol.structure_message)
                    self.protocol.handle_message(message)
                except Exception as exc:  # noqa: BLE001 - answered as pygls's loop does
                    self._report_server_error(exc, JsonRpcException)
                await asyncio.sleep(0)  # let handlers scheduled by this message run

    def report_server_error(self, error: Exception, source) -> None:
        """pygls's hook for errors outside a request. A body that is not JSON gets
        a JSON-RPC parse error (-32700, id null); anything else is logged in one
        line instead of pygls's "Error in server" dialog."""
        if isinstance(error, (ValueError, UnicodeDecodeError)) and not isinstance(error, JsonRpcException):
            from pygls.exceptions import JsonRpcParseError
            log.warning("ctxlint server: a message that is not JSON: %s", error)
            # JSON-RPC 2.0 section 5: the id is null when it could not be read (pygls's
            # response types drop a None id, so the message is written as plain data).
            self.protocol._send_data({"jsonrpc": "2.0", "id": None,
                                      "error": {"code": JsonRpcParseError.CODE, "message": f"Parse error: {error}"}})
            return
        log.warning("ctxlint server: %s: %s", type(error).__name__, error)

    # ------------------------------------------------------------ settings
    def update_settings(self, settings: Any) -> None:
        """Take client settings (`{"ctxlint": {...}}` or the inner table); bad values are reported."""
        if isinstance(settings, dict) and isinstance(settings.get("ctxlint"), dict):
            settings = settings["ctxlint"]
        if not isinstance(settings, dict):
            return
        table = {k.replace("_", "-"): v for k, v in settings.items()}
        unsafe = table.pop("unsafe-fixes", None)
        if isinstance(unsafe, bool):
            self.unsafe_fixes = unsafe
        if unsafe is not None and not isinstance(unsafe, bool):
            self.show_error(f"ctxlint: ignoring setting unsafe-fixes: expected true or false, got {unsafe!r}")
        debounce = table.pop("debounce-ms", None)
        if isinstance(debounce, (int, float)) and not isinstance(debounce, bool) and 0 <= debounce < float("inf"):
            self.debounce_s = debounce / 1000.0
        elif debounce is not None:
            self.show_error("ctxlint: ignoring setting debounce-ms: expected a number of milliseconds >= 0, "
                            f"got {debounce!r}")
        from ctxlint.config import Config, ConfigError, apply_overrides
        try:
            apply_overrides(Config(), dict(table))  # validate before adopting
        except ConfigError as exc:
            self.show_error(f"ctxlint: ignoring settings: {exc}")
            return
        self.overrides = table
        self._configs.clear()
        self._reported.clear()

    def show_error(self, message: str) -> None:
        """Tell the user once (window/showMessage); safe to call from the lint thread."""
        if message in self._reported:
            return
        self._reported.add(message)
        log.warning(message)
        params = types.ShowMessageParams(type=types.MessageType.Warning, message=message)
        loop = self._loop
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if loop is not None and running is not loop:
            loop.call_soon_threadsafe(self.window_show_message, params)
        else:
            self.window_show_message(params)

    def settings_for(self, path: str):
        """(Config, rules) for a document at `path`: its project's config plus the client overrides.

        Cached per directory, keyed by the config file's (path, mtime_ns, size):
        a lint costs one `stat` of that file, not a walk up the tree re-reading
        every pyproject.toml. The cache is dropped on didChangeConfiguration and
        on didSave of a pyproject.toml/ctxlint.toml (a config file created or
        deleted outside the editor is seen after either). A bad config file is
        reported once (window/showMessage) and the defaults are used.
        """
        from ctxlint.config import Config, ConfigError, apply_overrides, check_codes, find_config_file, load_config
        from ctxlint.rules import all_rules, select_rules

        directory = os.path.dirname(path) or "."
        hit = self._configs.get(directory)
        if hit is not None and hit[0] == _config_stamp(hit[0][0]):
            return hit[1], hit[2]
        try:
            source = find_config_file(Path(directory))
        except ConfigError as exc:  # an invalid pyproject.toml on the way up
            self.show_error(f"ctxlint: {exc}")
            source = None
        key = _config_stamp(source)
        try:
            config = load_config(str(source), None) if source else Config(root=Path(directory).resolve())
        except ConfigError as exc:
            self.show_error(f"ctxlint: {exc}")
            config = Config(root=Path(directory).resolve())
        try:
            apply_overrides(config, dict(self.overrides))
        except ConfigError as exc:
            self.show_error(f"ctxlint: {exc}")
        try:
            check_codes(config, all_rules())
            rules = select_rules(config.select, config.ignore, config.extend_select)
        except (ValueError, ConfigError) as exc:
            self.show_error(f"ctxlint: {exc}")
            rules = select_rules([], [])
        self._configs[directory] = (key, config, rules)
        return config, rules

    # ---------------------------------------------------------------- lint
    def language_for(self, path: str, language_id: str | None, config) -> str | None:
        """The ctxlint language of a document: by suffix (`engine.language_of`),
        else by the client's languageId (`LANGUAGE_IDS`), else Jinja for a
        template-dir suffix under one of `config.template_dirs`; None: not linted."""
        from ctxlint.engine import TEMPLATE_DIR_SUFFIXES, language_of
        lang = language_of(path)
        if lang:
            return lang
        if language_id and language_id in LANGUAGE_IDS:
            return LANGUAGE_IDS[language_id]
        p = Path(path)
        if p.suffix.lower() in TEMPLATE_DIR_SUFFIXES:
            rp = p.resolve()
            for d in config.template_dirs:
                if rp.is_relative_to((config.root / d).resolve()):
                    return "jinja"
        return None

    def lint_document(self, uri: str) -> LintState | None:
        """Lint the open document's current text; returns its state (None when not lintable)."""
        from ctxlint import engine
        doc = self.workspace.get_text_document(uri)
        path = to_fs_path(uri) or uri
        config, rules = self.settings_for(path)
        language = self.language_for(path, doc.language_id, config)
        if language is None:
            return None
        text = normalise(doc.source)
        state = LintState(doc.version, text, language, path, rules=rules, config=config)
        if len(text.encode("utf-8", "surrogatepass")) > config.max_file_size or not text.strip():
            return state
        # Cyclic GC paused during the lint, as the CLI does (`engine._GcPacer`): the
        # AST and facts hold no cycles, and the generation scans that `ast.parse`'s
        # allocation burst triggers cost 5-15% of a keystroke's latency.
        was = gc.isenabled()
        gc.disable()
        try:
            # The editor shows both tiers unless the client's `min-confidence` narrows it
            # (latent findings as Information, `diagnostic`).
            tier = self.overrides.get("min-confidence", "low") if isinstance(self.overrides, dict) else "low"
            state.findings, _ = engine.filter_confidence(engine.lint_text(path, text, language, rules, config), tier)
        except Exception as exc:  # a rule bug: tell the log, keep serving
            log.exception("lint failed for %s", path)
            self.show_error(f"ctxlint: internal error linting {Path(path).name}: {type(exc).__name__}: {exc}")
        finally:
            if was:
                gc.enable()
        if not self._frozen:
            # After the first lint every rule module is imported: move that heap out of
            # the collector's reach for good (gc.freeze, CPython docs), so the
            # collections that do run scan only what a lint allocates.
            gc.collect()
            gc.freeze()
            self._frozen = True
        return state

    async def lint_and_publish(self, uri: str, delay: float = 0.0) -> None:
        """Lint `uri` (after `delay` seconds, cancelled by a newer change) and publish diagnostics."""
        if delay:
            await asyncio.sleep(delay)
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return
        version = doc.version
        loop = asyncio.get_running_loop()
        self.in_flight.add(uri)
        try:
            state = await loop.run_in_executor(self.executor, self.lint_document, uri)
        finally:
            self.in_flight.discard(uri)
        doc = self.workspace.text_documents.get(uri)
        if doc is None or doc.version != version:
            return  # a newer change arrived meanwhile; its own lint will publish
        if state is None:
            self.states.pop(uri, None)
            self.publish(uri, [], version)
            return
        self.states[uri] = state
        self.publish(uri, [self.diagnostic(doc, state, i, f) for i, f in enumerate(state.findings)], version)

    def schedule(self, uri: str, delay: float) -> None:
        """(Re)start the lint of `uri` after `delay` seconds, cancelling one still waiting."""
        self._loop = asyncio.get_running_loop()
        old = self.pending.pop(uri, None)
        if old is not None and not old.done():
            old.cancel()
        self.pending[uri] = asyncio.ensure_future(self.lint_and_publish(uri, delay))

    def schedule_change(self, uri: str) -> None:
        """Debounce with a leading edge: lint now after a quiet spell, else after `debounce_s`."""
        now = time.monotonic()
        last = self.last_change.get(uri)
        self.last_change[uri] = now
        waiting = uri in self.pending and not self.pending[uri].done()
        quiet = last is None or now - last >= self.debounce_s
        if quiet and not waiting and uri not in self.in_flight:
            self.schedule(uri, 0.0)
        else:
            self.schedule(uri, self.debounce_s)

    def publish(self, uri: str, diagnostics: list[types.Diagnostic], version: int | None) -> None:
        """Send textDocument/publishDiagnostics for `uri` (an empty list clears them)."""
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version))

    # ---------------------------------------------------------- conversion
    def diagnostic(self, doc, state: LintState, index: int, f: Finding) -> types.Diagnostic:
        """The LSP diagnostic for finding number `index` of `state`."""
        rng = finding_range(doc, state, f)
        if f.code == "CTX000":
            severity = types.DiagnosticSeverity.Error
        elif f.code == "CTX001":
            severity = types.DiagnosticSeverity.Hint
        elif f.confidence != "high":
            severity = types.DiagnosticSeverity.Information  # latent: shown quietly
        else:
            severity = types.DiagnosticSeverity.Warning
        fixable = f.fix is not None and (f.fix.safety == SAFE or self.unsafe_fixes)
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=doc.uri if t.path == state.path else (from_fs_path(t.path) or doc.uri),
                                    range=types.Range(start=types.Position(line=max(t.line - 1, 0),
                                                                           character=max(t.col - 1, 0)),
                                                      end=types.Position(line=max(t.line - 1, 0),
                                                                         character=max(t.col - 1, 0)))),
            message=t.message) for t in f.trace] or None
        message = f"{f.name}: {f.message}"
        if f.fix is not None:
            message += f" [fix: {f.fix.description}{'' if f.fix.safety == SAFE else ', unsafe'}]"
        return types.Diagnostic(
            range=rng,
            message=message,
            severity=severity,
            related_information=related,
            code=f.code,
            code_description=types.CodeDescription(href=doc) if (doc := rule_doc_uri(f.code)) else None,
            source="ctxlint",
            tags=[types.DiagnosticTag.Unnecessary] if f.code == "CTX001" else None,
            data={"index": index, "version": state.version, "code": f.code, "name": f.name,
                  "fixable": fixable},
        )

    # ---------------------------------------------------------- code actions
    def current_state(self, uri: str) -> LintState | None:
        """The lint state of the open document's current version, linting it
        now (synchronously) when the stored one is stale; None when not open or not lintable."""
        doc = self.workspace.text_documents.get(uri)
        if doc is None:
            return None
        state = self.states.get(uri)
        if state is None or state.version != doc.version:
            state = self.lint_document(uri)
            if state is not None:
                self.states[uri] = state
        return state

    def allowed(self, f: Finding) -> bool:
        """Is `f`'s fix offered: safe, or unsafe with the `unsafe-fixes` setting on?"""
        return f.fix is not None and (f.fix.safety == SAFE or self.unsafe_fixes)

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        """textDocument/codeAction: one quick fix per fixable diagnostic in
        `params.context` and a "fix all" action (kinds `quickfix`, `FIX_ALL_KIND`),
        filtered by `params.context.only`. Edits are computed on the current
        document text (a stale diagnostic is re-matched by code and start line)."""
        uri = params.text_document.uri
        state = self.current_state(uri)
        if state is None:
            return []
        doc = self.workspace.get_text_document(uri)
        only = params.context.only
        want_quick = not only or any(str(k).startswith("quickfix") for k in only)
        want_fix_all = not only or any(FIX_ALL_KIND.startswith(str(k)) or str(k).startswith(FIX_ALL_KIND)
                                       for k in only)
        actions: list[types.CodeAction] = []
        if want_quick:
            for d in params.context.diagnostics:
                if d.source != "ctxlint" or not isinstance(d.data, dict):
                    continue
                f = self._finding_for(state, d)
                if f is None or not self.allowed(f):
                    continue
                new = apply_fixes(state, [f], self.unsafe_fixes, single=True)
                if new is None:
                    continue
                edit = self.workspace_edit(doc, state, new)
                if edit is None:
                    continue
                unsafe = "" if f.fix.safety == SAFE else " (unsafe)"
                actions.append(types.CodeAction(
                    title=f"ctxlint: {f.fix.description}{unsafe} [{f.code}]",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[d],
                    edit=edit,
                    is_preferred=f.fix.safety == SAFE,
                ))
        fixable = [f for f in state.findings if self.allowed(f)]
        # One "fix all in file": source.fixAll when the client asks for that kind
        # (fix on save), else a quick fix in the lightbulb menu.
        asked_fix_all = bool(only) and want_fix_all
        if fixable and (want_quick or asked_fix_all):
            new = apply_fixes(state, fixable, self.unsafe_fixes)
            edit = self.workspace_edit(doc, state, new) if new is not None else None
            if edit is not None:
                title = f"ctxlint: fix all in file ({len(fixable)} finding{'s' if len(fixable) != 1 else ''})"
                kind = FIX_ALL_KIND if asked_fix_all else types.CodeActionKind.QuickFix
                actions.append(types.CodeAction(title=title, kind=kind, edit=edit))
        return actions

    def _finding_for(self, state: LintState, d: types.Diagnostic) -> Finding | None:
        data = d.data
        idx = data.get("index")
        if data.get("version") == state.version and isinstance(idx, int) and 0 <= idx < len(state.findings):
            f = state.findings[idx]
            if f.code == data.get("code"):
                return f
        # Diagnostics from an older version: match by code and start line.
        for f in state.findings:
            if f.code == d.code and f.line - 1 == d.range.start.line:
                return f
        return None

    def workspace_edit(self, doc, state: LintState, new_text: str) -> types.WorkspaceEdit | None:
        """A WorkspaceEdit turning `doc` into `new_text` (LF-normalised) with one
        minimal TextEdit: versioned `documentChanges` when the client supports
        them, plain `changes` otherwise; None when nothing changes."""
        edit = minimal_text_edit(doc, new_text)
        if edit is None:
            return None
        caps = self.client_capabilities.workspace
        versioned = bool(caps and caps.workspace_edit and caps.workspace_edit.document_changes)
        if versioned:
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
                edits=[edit])])
        return types.WorkspaceEdit(changes={doc.uri: [edit]})


# ------------------------------------------------------------------ helpers
def _config_stamp(source: Path | None) -> tuple:
    """(path, mtime_ns, size) of a config file; (None, None, None) for no file,
    (path, None, None) when it cannot be stat'ed."""
    if source is None:
        return (None, None, None)
    try:
        st = source.stat()
    except OSError:
        return (source, None, None)
    return (source, st.st_mtime_ns, st.st_size)


def normalise(text: str) -> str:
    """Document text as the engine sees a file: no BOM, LF line endings."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


def char_column(line_text: str, col: int, language: str) -> int:
    """0-based character column for a finding's 1-based column on `line_text`."""
    from ctxlint.report.sarif_report import BYTE_COLUMN_LANGUAGES
    n = max(col - 1, 0)
    if language in BYTE_COLUMN_LANGUAGES:
        return len(line_text.encode("utf-8", "surrogatepass")[:n].decode("utf-8", "ignore"))
    return min(n, len(line_text))


def finding_range(doc, state: LintState, f: Finding) -> types.Range:
    """The finding's range in the client's position encoding."""
    lines = state.text.split("\n")
    last = max(len(lines) - 1, 0)
    sl = min(max(f.line - 1, 0), last)
    el = min(max(f.end_line - 1, sl), last)
    sc = char_column(lines[sl], f.col, state.language) if lines else 0
    ec = char_column(lines[el], f.end_col, state.language) if lines else 0
    if el == sl and ec <= sc:  # an empty range: widen to one character where the line has one
        ec = max(min(sc + 1, len(lines[sl])), sc)
    codec = doc.position_codec
    doc_lines = doc.lines
    start = codec.position_to_client_units(doc_lines, types.Position(line=sl, character=sc))
    end = codec.position_to_client_units(doc_lines, types.Position(line=el, character=ec))
    return types.Range(start=start, end=end)


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping character-offset edits to `text` (overlaps after the first are dropped)."""
    chosen: list[Edit] = []
    last_end = -1
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start < last_end or e.start < 0 or e.end > len(text) or e.end < e.start:
            continue
        chosen.append(e)
        last_end = max(e.end, e.start)
    for e in reversed(chosen):
        text = text[: e.start] + e.text + text[e.end:]
    return text


def apply_fixes(state: LintState, findings: list[Finding], unsafe: bool, single: bool = False) -> str | None:
    """The document text with the fixes of `findings` applied, or None when nothing changes.

    Text-edit fixes are applied here; when any finding's fix is a codemod, the
    fixers do the work (the same code `ctxlint check --fix` runs): for one
    finding (`single`) one round of `ctxlint.fixers.fix_round`, so the quick fix
    touches only that finding; for "fix all" `ctxlint.fixers.fix_text`, which
    re-lints and fixes in rounds until nothing changes.
    """
    fixes = [f for f in findings if f.fix is not None]
    if not fixes:
        return None
    if single and any(f.fix.codemod for f in fixes):
        try:
            from ctxlint.fixers import fix_round
        except ImportError:
            pass
        else:
            try:
                new, _, _ = fix_round(state.path, state.text, state.language, fixes, unsafe, [])
            except Exception:
                log.exception("fix_round failed for %s", state.path)
                return None
            return None if new == state.text else new
    if any(f.fix.codemod for f in fixes):
        try:
            from ctxlint.fixers import fix_text
        except ImportError:
            fixes = [f for f in fixes if not f.fix.codemod]
            if not fixes:
                return None
            new = apply_edits(state.text, [e for f in fixes for e in f.fix.edits])
        else:
            try:
                new = fix_text(state.path, state.text, state.language, fixes, unsafe,
                               rules=state.rules, config=state.config)
            except Exception:
                log.exception("fix_text failed for %s", state.path)
                return None
    else:
        new = apply_edits(state.text, [e for f in fixes for e in f.fix.edits])
    if new is None or new == state.text:
        return None
    return new


def minimal_text_edit(doc, new_normalised: str) -> types.TextEdit | None:
    """One TextEdit turning the document into `new_normalised` (LF text), in the doc's newline style.

    The common prefix and suffix are trimmed so the edit covers only the changed
    region (cursor and folds elsewhere are kept).
    """
    old = doc.source
    bom = "\ufeff" if old.startswith("\ufeff") else ""
    newline = "\r\n" if "\r\n" in old else ("\r" if "\r" in old else "\n")
    new = bom + (new_normalised.replace("\n", newline) if newline != "\n" else new_normalised)
    if new == old:
        return None
    p = 0
    limit = min(len(old), len(new))
    while p < limit and old[p] == new[p]:
        p += 1
    s = 0
    while s < limit - p and old[len(old) - 1 - s] == new[len(new) - 1 - s]:
        s += 1
    if p and old[p - 1] == "\r" and p < len(old) and old[p] == "\n":
        p -= 1  # never split a CRLF pair
    lines = doc.lines
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def pos(offset: int) -> types.Position:
        import bisect
        i = bisect.bisect_right(starts, offset) - 1
        i = min(i, max(len(lines) - 1, 0)) if lines else 0
        if not lines:
            return types.Position(line=0, character=0)
        if offset >= starts[-1] and lines and (lines[-1].endswith("\n") or lines[-1].endswith("\r")):
            return types.Position(line=len(lines), character=0)
        return doc.position_codec.position_to_client_units(lines, types.Position(line=i, character=offset - starts[i]))

    return types.TextEdit(range=types.Range(start=pos(p), end=pos(len(old) - s)), new_text=new[p: len(new) - s])


_DOC_DIR: Path | None = None


def rule_doc_uri(code: str) -> str | None:
    """A URI for the rule's documentation: a markdown file (the `ctxlint explain` text) in the cache dir.

    Written once per rule and ctxlint version under `$XDG_CACHE_HOME/ctxlint/docs/`
    (or the temp dir when the home cache is not writable); falls back to the source
    file of the rule's module.
    """
    global _DOC_DIR
    from ctxlint.rules import get_rule
    rule = get_rule(code)
    if _DOC_DIR is None:
        for base in (os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
                     tempfile.gettempdir()):
            d = Path(base) / "ctxlint" / "docs" / __version__
            try:
                d.mkdir(parents=True, exist_ok=True)
                _DOC_DIR = d
                break
            except OSError:
                continue
    if rule is None:
        return None
    target = (_DOC_DIR / f"{code}.md") if _DOC_DIR else None
    if target is not None:
        if not target.exists():
            text = f"# {rule.code} {rule.name}\n\n{rule.summary}\n\n{rule.doc.rstrip()}\n"
            try:
                fd, tmp = tempfile.mkstemp(dir=str(target.parent), prefix=".doc-")
                with os.fdopen(fd, "w", encoding="utf-8") as fh:
                    fh.write(text)
                os.replace(tmp, target)
            except OSError:
                target = None
        if target is not None:
            return target.as_uri()
    import inspect
    return Path(inspect.getsourcefile(type(rule)) or __file__).resolve().as_uri()


# ------------------------------------------------------------------ server
def create_server() -> CtxlintLanguageServer:
    """Build the server with its features registered (one instance per process)."""
    server = CtxlintLanguageServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: CtxlintLanguageServer, params: types.InitializeParams):
        """initialize: adopt `initializationOptions` as settings."""
        if params.initialization_options:
            ls.update_settings(params.initialization_options)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: CtxlintLanguageServer, params: types.DidOpenTextDocumentParams):
        """textDocument/didOpen: lint at once."""
        ls.schedule(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: CtxlintLanguageServer, params: types.DidChangeTextDocumentParams):
        """textDocument/didChange: lint the unsaved buffer, debounced (`schedule_change`);
        nothing for a document that is not open (`CtxlintProtocol` ignored the change)."""
        if params.text_document.uri in ls.workspace.text_documents:
            ls.schedule_change(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(ls: CtxlintLanguageServer, params: types.DidSaveTextDocumentParams):
        """textDocument/didSave: lint at once; a saved pyproject.toml/ctxlint.toml
        drops the config cache and re-lints every open document."""
        uri = params.text_document.uri
        if uri.endswith(("pyproject.toml", "ctxlint.toml")):
            ls._configs.clear()
            for open_uri in list(ls.workspace.text_documents):
                ls.schedule(open_uri, 0.0)
            return
        ls.schedule(uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: CtxlintLanguageServer, params: types.DidCloseTextDocumentParams):
        """textDocument/didClose: cancel a pending lint, forget the state, clear its diagnostics."""
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None and not task.done():
            task.cancel()
        ls.states.pop(uri, None)
        ls.last_change.pop(uri, None)
        ls.publish(uri, [], None)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: CtxlintLanguageServer, params: types.DidChangeConfigurationParams):
        """workspace/didChangeConfiguration: adopt the settings, drop the config cache, re-lint open documents."""
        ls.update_settings(params.settings)
        ls._configs.clear()
        for uri in list(ls.workspace.text_documents):
            ls.schedule(uri, 0.0)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
                                resolve_provider=False),
    )
    def code_action(ls: CtxlintLanguageServer, params: types.CodeActionParams):
        """textDocument/codeAction: `CtxlintLanguageServer.code_actions`; never fails the request."""
        try:
            return ls.code_actions(params)
        except Exception:
            log.exception("code actions failed")
            return []

    return server


class _AnsweredElsewhere(logging.Filter):
    """Drop pygls's traceback-carrying records for bad client input that
    `CtxlintProtocol` / `report_server_error` answer and log in one line."""

    PREFIXES = ("Unable to deserialize message", "Unable to handle message")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.PREFIXES)


def main() -> int:
    """Run the server on stdin/stdout until the client says exit. Returns the exit code."""
    logging.basicConfig(level=os.environ.get("CTXLINT_LSP_LOG", "WARNING").upper(),
                        format="ctxlint-lsp %(levelname)s %(message)s")
    for handler in logging.getLogger().handlers:  # whichever pygls logger emits them
        handler.addFilter(_AnsweredElsewhere())
    server = create_server()
    server.start_io()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
