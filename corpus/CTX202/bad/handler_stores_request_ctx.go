// expect: 13 CTX202
// expect: 14 CTX202
// A handler keeps the request's context (and per-request contexts in a map)
// on the long-lived server; net/http cancels them when ServeHTTP returns.
package server

import (
	"context"
	"net/http"
)

type Server struct {
	last  context.Context
	byKey map[string]context.Context
	jobs  chan string
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.last = r.Context()
	s.byKey[r.URL.Path] = r.Context()
	s.jobs <- r.URL.Path
	w.WriteHeader(http.StatusAccepted)
}

// worker runs later, when every stored context is already cancelled.
func (s *Server) worker(run func(context.Context, string) error) {
	for p := range s.jobs {
		_ = run(s.byKey[p], p)
	}
}
