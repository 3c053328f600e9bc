// expect: none
// Handlers that wait for their goroutines before returning: a WaitGroup, an
// errgroup, a channel receive. The request's context is live for all their work.
package gateway

import (
	"context"
	"net/http"
	"sync"
)

// Group is errgroup.Group's API (golang.org/x/sync/errgroup).
type Group interface {
	Go(f func() error)
	Wait() error
}

type Store interface {
	Insert(ctx context.Context, tenant string, tokens int) error
}

type Server struct {
	store    Store
	newGroup func(ctx context.Context) (Group, context.Context)
}

func (s *Server) Fanout(w http.ResponseWriter, r *http.Request) {
	var wg sync.WaitGroup
	for _, t := range []string{"a", "b"} {
		wg.Add(1)
		go func(t string) {
			defer wg.Done()
			_ = s.store.Insert(r.Context(), t, 1)
		}(t)
	}
	wg.Wait()
}

func (s *Server) Group(w http.ResponseWriter, r *http.Request) {
	g, gctx := s.newGroup(r.Context())
	g.Go(func() error { return s.store.Insert(gctx, "a", 1) })
	go func() { _ = s.store.Insert(gctx, "b", 1) }()
	_ = g.Wait()
}

func (s *Server) Channel(w http.ResponseWriter, r *http.Request) {
	done := make(chan error, 1)
	go func() { done <- s.store.Insert(r.Context(), "b", 1) }()
	if err := <-done; err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
	}
}
