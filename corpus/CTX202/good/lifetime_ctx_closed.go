// expect: none
// A server keeps its lifetime context next to its cancel func; Stop calls it,
// and request methods use their own ctx (checking the lifetime one only to
// stop early on shutdown).
package srv

import "context"

type Store interface {
	Put(ctx context.Context, k, v string) error
}

type Server struct {
	ctx    context.Context
	cancel context.CancelFunc
	store  Store
}

func (s *Server) Start(parent context.Context) {
	s.ctx, s.cancel = context.WithCancel(parent)
}

func (s *Server) Put(ctx context.Context, k, v string) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return s.store.Put(ctx, k, v)
}

func (s *Server) Stop() { s.cancel() }
