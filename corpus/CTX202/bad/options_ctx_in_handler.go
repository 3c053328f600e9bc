// expect: 13 CTX202
// A server keeps its lifetime context in an options struct, and an HTTP handler
// hands that context to the backend instead of r.Context(): a client that hangs
// up or times out leaves the backend call running until the server stops.
package gateway

import (
	"context"
	"net/http"
)

type Options struct {
	Ctx  context.Context
	Addr string
}

type Backend interface {
	Call(ctx context.Context, q string) (string, error)
}

type Server struct {
	opts Options
	be   Backend
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	out, err := s.be.Call(s.opts.Ctx, r.URL.Query().Get("q"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write([]byte(out))
}
