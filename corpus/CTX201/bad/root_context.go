// expect: 15 CTX201
// expect: 17 CTX201
// A router keeps its startup context and the "current" request's context in
// package-level variables.
package router

import (
	"context"
	"net/http"
)

type ctxKey struct{}

var (
	rootCtx = context.Background()
	// current is overwritten by every request and read by background jobs.
	current context.Context
)

func handle(w http.ResponseWriter, r *http.Request) {
	current = context.WithValue(r.Context(), ctxKey{}, r.Header.Get("X-Tenant"))
	w.WriteHeader(http.StatusNoContent)
}

func background() context.Context { return rootCtx }
