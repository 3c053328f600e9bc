// expect: none
// Work detached from the request with context.WithoutCancel and a timeout of its
// own, and a goroutine started outside any handler (a server's Start).
package gateway

import (
	"context"
	"net/http"
	"time"
)

type Store interface {
	Insert(ctx context.Context, tenant string, tokens int) error
}

type Server struct {
	store Store
}

func (s *Server) Record(w http.ResponseWriter, r *http.Request) {
	bg, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
	go func() {
		defer cancel()
		_ = s.store.Insert(bg, r.Header.Get("X-Tenant"), 1)
	}()
	w.WriteHeader(http.StatusAccepted)
}

func (s *Server) Start(ctx context.Context) {
	go func() { _ = s.store.Insert(ctx, "boot", 0) }()
}
