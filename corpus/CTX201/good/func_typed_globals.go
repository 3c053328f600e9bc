// expect: none
// Package-level values whose types take or produce a context are functions,
// not contexts: hooks, middleware and a context key.
package middleware

import (
	"context"
	"net/http"
)

type tenantKey struct{}

var (
	// OnRequest is called with each request's context.
	OnRequest func(ctx context.Context, r *http.Request) error
	// Derive builds a request context; it stores nothing.
	Derive = func(r *http.Request) context.Context {
		return context.WithValue(r.Context(), tenantKey{}, r.Header.Get("X-Tenant"))
	}
	key = tenantKey{}
)

func Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if OnRequest != nil && OnRequest(r.Context(), r) != nil {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r.WithContext(Derive(r)))
	})
}
