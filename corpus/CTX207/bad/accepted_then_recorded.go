// expect: 23 CTX207
// An HTTP handler answers 202 and records the request in a goroutine with
// r.Context() (mark3labs/mcp-go#248): net/http cancels that context when the
// handler returns, so the write usually fails with "context canceled".
package gateway

import (
	"context"
	"net/http"
)

type Store interface {
	Insert(ctx context.Context, tenant string, tokens int) error
}

type Server struct {
	store Store
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tenant := r.Header.Get("X-Tenant")
	w.WriteHeader(http.StatusAccepted)
	go func() {
		_ = s.store.Insert(r.Context(), tenant, 0)
	}()
}
