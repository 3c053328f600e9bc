"""End-to-end tests of `ctxlint lsp` with pytest-lsp: a real LSP client talks to the
server over stdio (`python -m ctxlint lsp` in a subprocess)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

BUGGY = '''\
import asyncio


async def write_usage(tenant_id: str, tokens: int) -> None:
    await asyncio.sleep(0)


async def complete(tenant_id: str, prompt: str) -> str:
    out = prompt[::-1]
    asyncio.create_task(write_usage(tenant_id, len(out)))
    return out
'''
CLEAN = BUGGY.replace("    asyncio.create_task(", "    await (")


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "ctxlint", "lsp"]))
async def client(lsp_client: LanguageClient, tmp_path_factory):
    caps = pytest_lsp.client_capabilities("visual-studio-code")
    root = tmp_path_factory.mktemp("ws")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps, root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="ws")]))
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


async def wait_diagnostics(client: LanguageClient, uri: str, pred=lambda ds: True, timeout: float = 15.0):
    """Wait until the latest diagnostics published for `uri` satisfy `pred`; return them."""
    async def loop():
        while True:
            if uri in client.diagnostics and pred(client.diagnostics[uri]):
                return client.diagnostics[uri]
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return await asyncio.wait_for(loop(), timeout)


def open_doc(client: LanguageClient, path: Path, text: str, language_id: str = "python", version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language_id, version=version, text=text)))
    return uri


def change_doc(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP TextEdits (UTF-16 positions; ASCII test texts) the way an editor does."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for ln in lines:
        starts.append(starts[-1] + len(ln))

    def off(p: types.Position) -> int:
        return starts[min(p.line, len(lines))] + p.character
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: off(e.range.start)] + e.new_text + text[off(e.range.end):]
    return text


def edits_of(action: types.CodeAction, uri: str) -> list[types.TextEdit]:
    we = action.edit
    if we.document_changes:
        return [e for dc in we.document_changes if dc.text_document.uri == uri for e in dc.edits]
    return list(we.changes[uri])


@pytest.mark.asyncio
async def test_diagnostics_on_open(client: LanguageClient):
    path = client.root / "svc.py"
    path.write_text("")  # only the unsaved buffer has the bug
    uri = open_doc(client, path, BUGGY)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) > 0)
    assert len(ds) == 1
    d = ds[0]
    assert d.code == "CTX107" and d.source == "ctxlint"
    assert d.message.startswith("task-reference-discarded: ")
    # no entry point reaches the buffer's handler: a latent finding, shown quietly, with
    # the reason as related information (issue 32); a manifest one is a Warning
    assert d.severity == types.DiagnosticSeverity.Information
    assert d.related_information and "no entry point" in d.related_information[0].message
    assert (d.range.start.line, d.range.start.character) == (9, 4)
    assert d.range.end.line == 9 and d.range.end.character > 4
    href = d.code_description.href
    assert href.startswith("file://")
    doc = Path(href[len("file://"):]).read_text()
    assert "# CTX107 task-reference-discarded" in doc and "## Why is this bad" in doc


@pytest.mark.asyncio
async def test_change_is_debounced_and_lints_the_unsaved_buffer(client: LanguageClient):
    path = client.root / "svc.py"
    path.write_text(BUGGY)  # the file on disk has the bug; the buffer will not
    uri = open_doc(client, path, CLEAN)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)
    change_doc(client, uri, BUGGY, 2)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) == 1)
    assert ds[0].code == "CTX107"
    # A burst of changes publishes for the last version only.
    for v in range(3, 8):
        change_doc(client, uri, CLEAN if v % 2 else BUGGY, v)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)
    assert len(ds) == 0


@pytest.mark.asyncio
async def test_save_lints_at_once_while_a_change_waits_for_its_debounce(client: LanguageClient):
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"ctxlint": {"debounce-ms": 20000}}))
    uri = open_doc(client, client.root / "s.py", CLEAN)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)
    change_doc(client, uri, BUGGY, 2)  # after a quiet spell: linted at once (leading edge)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 1, timeout=10)
    change_doc(client, uri, CLEAN, 3)  # right after: waits for the 20 s debounce ...
    await asyncio.sleep(0.5)
    assert len(client.diagnostics[uri]) == 1
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    # ... unless the buffer is saved, which lints the (unsaved-to-disk) buffer now.
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0, timeout=10)


@pytest.mark.asyncio
async def test_project_config_and_did_change_configuration(client: LanguageClient):
    proj = client.root / "proj"
    proj.mkdir()
    (proj / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX107"]\n')
    uri_ignored = open_doc(client, proj / "a.py", BUGGY)
    uri_plain = open_doc(client, client.root / "b.py", BUGGY)
    await wait_diagnostics(client, uri_plain, lambda ds: len(ds) == 1)
    await wait_diagnostics(client, uri_ignored, lambda ds: len(ds) == 0)
    # Settings pushed by the client apply on top of the file's config.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"ctxlint": {"ignore": ["CTX1"]}}))
    await wait_diagnostics(client, uri_plain, lambda ds: len(ds) == 0)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"ctxlint": {}}))
    ds = await wait_diagnostics(client, uri_plain, lambda ds: len(ds) == 1)
    assert ds[0].code == "CTX107"


@pytest.mark.asyncio
async def test_noqa_and_unused_noqa(client: LanguageClient):
    text = BUGGY.replace("len(out)))\n", "len(out)))  # noqa: CTX107\n") + "VALUE = 1  # noqa: CTX107\n"
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"ctxlint": {"extend-select": ["CTX001"]}}))
    uri = open_doc(client, client.root / "n.py", text)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) > 0)
    # The used suppression hides CTX107; the stale one on line 12 is CTX001, a faded hint.
    assert [(d.code, d.range.start.line) for d in ds] == [("CTX001", 11)]
    assert ds[0].severity == types.DiagnosticSeverity.Hint
    assert list(ds[0].tags) == [types.DiagnosticTag.Unnecessary]


GO_BUG = """\
package svc

import (
	"context"
	"time"
)

func work(ctx context.Context) error { return ctx.Err() }

func Fetch(parent context.Context, fast bool) error {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	if fast {
		return work(ctx)
	}
	cancel()
	return nil
}
"""


@pytest.mark.asyncio
async def test_go_document_edit_fix_and_fix_all(client: LanguageClient):
    """Go fixes are text edits computed by the rule: quick fix and source.fixAll both apply them."""
    uri = open_doc(client, client.root / "fetch.go", GO_BUG, language_id="go")
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) > 0)
    assert [(d.code, d.range.start.line, d.range.start.character) for d in ds] == [("CTX101", 10, 16)]
    assert ds[0].message.startswith("lost-cancel: ")
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=ds[0].range,
        context=types.CodeActionContext(diagnostics=list(ds))))
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and "[CTX101]" in a.title]
    assert len(quick) == 1 and quick[0].is_preferred
    fixed = apply_text_edits(GO_BUG, edits_of(quick[0], uri))
    assert "\tdefer cancel()\n" in fixed
    # source.fixAll (fix on save) yields the same text.
    only = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=ds[0].range,
        context=types.CodeActionContext(diagnostics=[], only=["source.fixAll"])))
    assert [a.kind for a in only] == ["source.fixAll.ctxlint"]
    assert apply_text_edits(GO_BUG, edits_of(only[0], uri)) == fixed
    change_doc(client, uri, fixed, 2)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)


@pytest.mark.asyncio
async def test_jinja_document(client: LanguageClient):
    uri = open_doc(client, client.root / "page.j2", "<p>{{ user.name }}</p>\n<p>{{ user.__class__.__mro__ }}</p>\n",
                   language_id="jinja")
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) > 0)
    assert [(d.code, d.range.start.line) for d in ds] == [("CTX302", 1)]
    change_doc(client, uri, "<p>{{ user.name }}</p>\n", 2)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)


@pytest.mark.asyncio
async def test_non_ascii_columns_are_utf16(client: LanguageClient):
    text = 'import asyncio\n\nasync def f():\n    x = "😀"; asyncio.create_task(f())\n'
    uri = open_doc(client, client.root / "emoji.py", text)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) > 0)
    # UTF-16: 9 ASCII characters, a surrogate pair, then `"; `.
    assert (ds[0].range.start.line, ds[0].range.start.character) == (3, 9 + 2 + 3)


@pytest.mark.asyncio
async def test_quick_fix_removes_the_diagnostic(client: LanguageClient):
    uri = open_doc(client, client.root / "fixme.py", BUGGY)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) == 1)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=ds[0].range,
        context=types.CodeActionContext(diagnostics=ds)))
    titles = [a.title for a in actions]
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and "[CTX107]" in a.title]
    assert quick, titles
    assert any("fix all in file" in t for t in titles), titles
    new_text = apply_text_edits(BUGGY, edits_of(quick[0], uri))
    assert new_text != BUGGY
    compile(new_text, "fixme.py", "exec")
    change_doc(client, uri, new_text, 2)
    await wait_diagnostics(client, uri, lambda ds: not any(d.code == "CTX107" for d in ds))
    assert "_background_tasks" in new_text or "add_done_callback" in new_text



@pytest_lsp.fixture(config=ClientServerConfig(server_command=[sys.executable, "-m", "ctxlint", "lsp"]))
async def client_with_options(lsp_client: LanguageClient, tmp_path_factory):
    root = tmp_path_factory.mktemp("ws2")
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
        initialization_options={"ctxlint": {"ignore": ["CTX107"], "debounce-ms": 0}}))
    lsp_client.root = root
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_initialization_options_and_bad_settings(client_with_options: LanguageClient):
    client = client_with_options
    uri = open_doc(client, client.root / "svc.py", BUGGY)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)
    # An unknown key is reported to the user and the previous settings stay in force.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"ctxlint": {"no-such-key": 1}}))
    async def warned():
        while not any("no-such-key" in m.message for m in client.messages):
            await client.wait_for_notification(types.WINDOW_SHOW_MESSAGE)
    await asyncio.wait_for(warned(), 15)
    # So is a debounce-ms that is not a number of milliseconds.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"ctxlint": {"ignore": ["CTX107"], "debounce-ms": "fast"}}))
    async def warned_debounce():
        while not any("debounce-ms" in m.message and "'fast'" in m.message for m in client.messages):
            await client.wait_for_notification(types.WINDOW_SHOW_MESSAGE)
    await asyncio.wait_for(warned_debounce(), 15)
    change_doc(client, uri, BUGGY + "\n", 2)
    await asyncio.sleep(0.5)
    assert len(client.diagnostics[uri]) == 0
    # The client without a codeAction/documentChanges capability gets plain `changes`.
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    go = open_doc(client, client.root / "f.go", GO_BUG, language_id="go")
    ds = await wait_diagnostics(client, go, lambda ds: len(ds) > 0)
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=go), range=ds[0].range,
        context=types.CodeActionContext(diagnostics=list(ds))))
    assert actions and all(a.edit.changes and not a.edit.document_changes for a in actions)

# ------------------------------------------------------- in-process helpers
def test_settings_for_caches_config_per_directory_until_the_file_changes(tmp_path, monkeypatch):
    import os

    from ctxlint import config as config_mod
    from ctxlint.lsp import CtxlintLanguageServer
    (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX107"]\n')
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    walks = []
    real_find = config_mod.find_config_file
    monkeypatch.setattr(config_mod, "find_config_file", lambda start: walks.append(start) or real_find(start))
    ls = CtxlintLanguageServer()
    messages: list[str] = []
    monkeypatch.setattr(ls, "show_error", messages.append)
    try:
        cfg, _rules = ls.settings_for(str(pkg / "a.py"))
        assert "CTX107" in cfg.ignore and len(walks) == 1
        for _ in range(5):  # keystrokes: no walk up the tree, no TOML parse
            assert ls.settings_for(str(pkg / "b.py"))[0] is cfg
        assert len(walks) == 1
        # The config file changes on disk (mtime and size): reloaded on the next lint.
        (tmp_path / "pyproject.toml").write_text('[tool.ctxlint]\nignore = ["CTX501", "CTX107"]\n')
        st = (tmp_path / "pyproject.toml").stat()
        os.utime(tmp_path / "pyproject.toml", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        cfg2, _ = ls.settings_for(str(pkg / "a.py"))
        assert "CTX501" in cfg2.ignore and len(walks) == 2
        # An invalid pyproject.toml is reported, not raised, and defaults apply.
        (pkg / "pyproject.toml").write_text("[tool.ctxlint\n")
        ls._configs.clear()
        cfg3, _ = ls.settings_for(str(pkg / "a.py"))
        assert "CTX107" not in cfg3.ignore and any("invalid TOML" in m for m in messages), messages
    finally:
        ls.executor.shutdown(wait=False)


def test_invalid_server_settings_are_reported(monkeypatch):
    from ctxlint.lsp import DEFAULT_DEBOUNCE_S, CtxlintLanguageServer
    ls = CtxlintLanguageServer()
    messages: list[str] = []
    monkeypatch.setattr(ls, "show_error", messages.append)
    try:
        for bad in ("fast", -5, True, float("nan")):
            ls.update_settings({"ctxlint": {"debounce-ms": bad}})
        assert ls.debounce_s == DEFAULT_DEBOUNCE_S and len(messages) == 4, messages
        assert all("debounce-ms" in m for m in messages)
        ls.update_settings({"debounce-ms": 250, "unsafe-fixes": "yes"})
        assert ls.debounce_s == 0.25 and ls.unsafe_fixes is False
        assert "unsafe-fixes" in messages[-1]
    finally:
        ls.executor.shutdown(wait=False)


def _doc(text: str):
    from pygls.workspace import TextDocument
    return TextDocument("file:///x.go", text, version=1)


def test_minimal_text_edit_keeps_crlf_and_touches_only_the_change():
    from ctxlint.lsp import minimal_text_edit, normalise
    old = "a\r\nb\r\nc\r\n"
    doc = _doc(old)
    new_lf = normalise(old).replace("b\n", "b\nINSERTED\n")
    edit = minimal_text_edit(doc, new_lf)
    assert apply_text_edits(old, [edit]) == "a\r\nb\r\nINSERTED\r\nc\r\n"
    assert edit.range.start.line == 2 and edit.new_text == "INSERTED\r\n"
    assert minimal_text_edit(doc, normalise(old)) is None


def test_apply_edits_drops_overlaps_and_bad_offsets():
    from ctxlint.findings import Edit
    from ctxlint.lsp import apply_edits
    text = "0123456789"
    assert apply_edits(text, [Edit(2, 4, "ab"), Edit(3, 5, "zz"), Edit(8, 8, "!"), Edit(9, 40, "x")]) == "01ab4567!89"


def test_lsp_apply_fixes_uses_fix_text_for_codemods():
    from ctxlint import engine
    from ctxlint.config import Config
    from ctxlint.lsp import LintState, apply_fixes
    from ctxlint.rules import select_rules
    findings = engine.lint_text("svc.py", BUGGY, "python", select_rules(["CTX107"], []), Config())
    state = LintState(1, BUGGY, "python", "svc.py", findings)
    new = apply_fixes(state, findings, unsafe=False)
    assert new and new != BUGGY
    assert engine.lint_text("svc.py", new, "python", select_rules(["CTX107"], []), Config()) == []


TWO_BUGS = BUGGY + '''

async def audit(tenant_id: str) -> None:
    asyncio.ensure_future(write_usage(tenant_id, 0))
'''


@pytest.mark.asyncio
async def test_quick_fix_is_per_finding_and_fix_all_fixes_every_one(client: LanguageClient):
    uri = open_doc(client, client.root / "two.py", TWO_BUGS)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) == 2)
    assert [d.range.start.line for d in ds] == [9, 14]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=ds[0].range,
        context=types.CodeActionContext(diagnostics=[ds[0]])))
    one = [a for a in actions if "[CTX107]" in a.title]
    every = [a for a in actions if a.kind == types.CodeActionKind.QuickFix and "fix all in file (2 findings)" in a.title]
    assert len(one) == 1 and len(every) == 1, [a.title for a in actions]
    after_one = apply_text_edits(TWO_BUGS, edits_of(one[0], uri))
    assert "    asyncio.ensure_future(write_usage(tenant_id, 0))\n" in after_one  # the other is untouched
    change_doc(client, uri, after_one, 2)
    ds = await wait_diagnostics(client, uri, lambda ds: [d.code for d in ds].count("CTX107") == 1)
    assert [d.range.start.line for d in ds if d.code == "CTX107"][0] > 9
    after_all = apply_text_edits(TWO_BUGS, edits_of(every[0], uri))
    change_doc(client, uri, after_all, 3)
    await wait_diagnostics(client, uri, lambda ds: not any(d.code == "CTX107" for d in ds))


# ------------------------------------------------------- junk from the client
@pytest.mark.asyncio
async def test_did_change_for_a_document_not_open_is_ignored_without_an_error_message(client: LanguageClient):
    uri = open_doc(client, client.root / "open.py", BUGGY)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 1)
    ghost = (client.root / "never_opened.py").as_uri()
    change_doc(client, ghost, BUGGY, 2)
    closed = open_doc(client, client.root / "closed.py", BUGGY)
    await wait_diagnostics(client, closed, lambda ds: len(ds) == 1)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=closed)))
    change_doc(client, closed, CLEAN, 3)
    # The server goes on: a change to the open document is still linted.
    change_doc(client, uri, CLEAN, 2)
    await wait_diagnostics(client, uri, lambda ds: len(ds) == 0)
    await asyncio.sleep(0.3)
    assert not [m for m in client.messages if "Error" in m.message], [m.message for m in client.messages]
    assert ghost not in client.diagnostics or client.diagnostics[ghost] == []


@pytest.mark.asyncio
async def test_fix_all_in_file_is_offered_once(client: LanguageClient):
    uri = open_doc(client, client.root / "two_all.py", TWO_BUGS)
    ds = await wait_diagnostics(client, uri, lambda ds: len(ds) == 2)
    for only in (None, [types.CodeActionKind.QuickFix], ["source.fixAll"], [types.CodeActionKind.Source]):
        actions = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=ds[0].range,
            context=types.CodeActionContext(diagnostics=list(ds), only=only)))
        fix_all = [a for a in actions if "fix all in file" in a.title]
        assert len(fix_all) == 1, (only, [(a.title, a.kind) for a in actions])


def _raw_exchange(bodies: list[bytes], timeout: float = 30.0) -> tuple[list[dict], str]:
    """Send raw LSP frames to `python -m ctxlint lsp`; return the JSON messages it wrote and its stderr."""
    import json
    import subprocess
    frames = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(b), b) for b in bodies)
    out = subprocess.run([sys.executable, "-m", "ctxlint", "lsp"], input=frames, capture_output=True,
                         timeout=timeout)
    msgs, data = [], out.stdout
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        msgs.append(json.loads(rest[:n]))
        data = rest[n:]
    return msgs, out.stderr.decode("utf-8", "replace")


def test_malformed_json_gets_a_parse_error_and_the_server_goes_on():
    import json
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"capabilities": {}, "processId": None, "rootUri": None}}).encode()
    shutdown = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}).encode()
    exit_ = json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()
    msgs, err = _raw_exchange([init, b'{"jsonrpc": "2.0", "id": 7, "method": ', shutdown, exit_])
    errors = [m for m in msgs if "error" in m]
    assert [(m["id"], m["error"]["code"]) for m in errors] == [(None, -32700)], msgs
    assert {m.get("id") for m in msgs if "result" in m} == {1, 2}, msgs
    assert not any(m.get("method") == "window/showMessage" for m in msgs), msgs
    assert "Traceback" not in err, err


def test_request_with_invalid_params_gets_invalid_params_error(tmp_path):
    """A negative Position or `"textDocument": 5` is answered with -32602, not left hanging,
    and the server goes on serving valid requests."""
    import json
    uri = (tmp_path / "p.py").as_uri()

    def msg(**kw) -> bytes:
        return json.dumps({"jsonrpc": "2.0", **kw}).encode()
    rng = {"start": {"line": 9, "character": 0}, "end": {"line": 9, "character": 4}}
    bodies = [
        msg(id=1, method="initialize", params={"capabilities": {}, "processId": None, "rootUri": None}),
        msg(method="initialized", params={}),
        msg(method="textDocument/didOpen", params={"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": BUGGY}}),
        msg(id=3, method="textDocument/codeAction", params={
            "textDocument": {"uri": uri}, "range": {"start": {"line": -1, "character": 0},
                                                   "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": []}}),
        msg(id=4, method="textDocument/codeAction", params={"textDocument": 5, "range": rng,
                                                             "context": {"diagnostics": []}}),
        msg(id=5, method="textDocument/codeAction", params={"textDocument": {"uri": uri}, "range": rng,
                                                             "context": {"diagnostics": [], "only": ["quickfix"]}}),
        msg(method="textDocument/didChange", params={
            "textDocument": {"uri": (tmp_path / "ghost.py").as_uri(), "version": 2},
            "contentChanges": [{"text": BUGGY}]}),
        msg(id=6, method="shutdown"),
        msg(method="exit"),
    ]
    msgs, err = _raw_exchange(bodies)
    # The change for a document never opened: one log line, no traceback, no dialog.
    assert len([ln for ln in err.splitlines() if "ghost.py" in ln]) == 1, err
    by_id = {m["id"]: m for m in msgs if "id" in m and "method" not in m}
    assert by_id[3]["error"]["code"] == -32602 and by_id[4]["error"]["code"] == -32602, by_id
    assert any("fix all in file" in a["title"] for a in by_id[5]["result"]), by_id[5]
    assert "result" in by_id[6]
    assert not any(m.get("method") == "window/showMessage" for m in msgs), msgs
    assert "Traceback" not in err, err
