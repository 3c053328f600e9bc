"""CTX207 request-context-outlives-handler (Go): a goroutine started by an HTTP or
gRPC handler keeps using the request's context for work the handler does not wait for."""

from __future__ import annotations

from ctxlint.rules import Rule
from ctxlint.semantic.go.ctx import (
    ctx_params,
    is_entry_point,
    module_go_version,
    request_ctx_flow,
    waits_after,
)

#: Go release that added context.WithoutCancel (https://go.dev/doc/go1.21#context).
WITHOUT_CANCEL_SINCE = (1, 21)


class RequestContextOutlivesHandler(Rule):
    code = "CTX207"
    name = "request-context-outlives-handler"
    language = "go"
    summary = ("A goroutine started by an HTTP or gRPC handler uses the request's ctx for work the handler "
               "does not wait for: the ctx is cancelled when the handler returns.")
    tokens = ("Context",)
    reported_when = ("A handler (an `http.ResponseWriter` and `*http.Request` pair, or a gRPC unary method) "
                     "starts a goroutine that hands the request's context, or one derived from it, to a call, "
                     "and nothing in the handler waits for the goroutine before it returns.")
    doc = """\
## What it does
Finds a `go` statement in an HTTP handler (a function taking an
`http.ResponseWriter` and an `*http.Request`) or a gRPC unary method
(`(ctx context.Context, req *T) (*U, error)`) whose goroutine hands the request's
context to a call: `r.Context()`, the ctx parameter, or a context derived from them
(`context.WithTimeout(ctx, ...)`, `context.WithValue`, a local bound to one; not
`context.WithoutCancel`). The finding is reported at the `go` statement.

It stays silent when the handler waits for the goroutine before it returns (a
`WaitGroup`'s or an errgroup's `Wait()`, a channel receive after the `go` statement),
and when the goroutine only watches the context to stop itself (`<-ctx.Done()`,
`ctx.Err()`).

## Why is this bad
net/http cancels a request's context when `ServeHTTP` returns, and gRPC cancels an
RPC's context when the method returns. Work a handler starts in a goroutine and does
not wait for — billing, usage records, cache fills, a reply sent after an early
`202 Accepted` — then fails with `context canceled` on most requests, depending on
who wins the race (mark3labs/mcp-go#248).

## Example
```go
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	text, tokens, _ := h.llm.Complete(ctx, r.FormValue("prompt"))
	go func() {
		_ = h.usage.Insert(ctx, Usage{Tokens: tokens})
	}()
	_ = json.NewEncoder(w).Encode(text)
}
```

## Use instead
```go
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	go func() {
		defer cancel()
		_ = h.usage.Insert(bg, Usage{Tokens: tokens})
	}()
```
`context.WithoutCancel` (Go 1.21+) keeps the request's values and trace and drops
its cancellation; the timeout gives the detached work a bound of its own.

## Fix safety
No fix: the bound the detached work needs (a timeout, a server-lifetime context) is
the author's decision.

## Source
net/http's `Request.Context` docs ("For incoming server requests, the context is
canceled when the client's connection closes, the request is canceled (with HTTP/2),
or when the ServeHTTP method returns"); mark3labs/mcp-go#248; the `context` package's
`WithoutCancel`.
"""

    def check(self, facts):
        if facts.is_test_code:
            return
        for go in facts.nodes("go_statement"):
            fn = facts.enclosing_function(go)
            if fn is None or not is_entry_point(facts, fn):
                continue
            flow = request_ctx_flow(facts, fn)
            if not flow.names and not flow.requests:
                continue
            use = flow.used_by_goroutine(go)
            if use is None:
                continue
            if waits_after(facts, fn, go):
                continue
            version = module_go_version(facts)
            origin = (f"{sorted(flow.requests)[0]}.Context()" if flow.http and flow.requests
                      else next(iter(sorted(ctx_params(facts, fn))), "ctx"))
            detach = (f"context.WithoutCancel({origin}) (Go 1.21+) with a timeout of its own"
                      if version is None or version >= WITHOUT_CANCEL_SINCE
                      else "a context of its own that carries the values it needs, with a timeout")
            what = "net/http cancels it when the handler returns" if flow.http else \
                "gRPC cancels it when the method returns"
            yield facts.finding(self, go, (
                f"this goroutine hands the request's context (`{facts.text_of(use)}`) to "
                f"`{facts.text_of(use.parent.parent.child_by_field_name('function'))}`, and the handler does not "
                f"wait for it: {what}, so the call fails with `context canceled`; give the goroutine "
                f"{detach}"),
                trace=[(use, "the request's context is used here, after the handler may have returned")])
