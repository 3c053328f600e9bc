// expect: 14 CTX202
// A per-stream object keeps a derived context and its cancel func (a plain
// `func()` field); nothing in the package calls it, so every stream's context
// stays registered with the connection's context until the connection ends.
package relay

import "context"

type Backend interface {
	Call(ctx context.Context, id string) (string, error)
}

type stream struct {
	ctx    context.Context
	cancel func()
	id     string
}

func newStream(parent context.Context, id string) *stream {
	ctx, cancel := context.WithCancel(parent)
	return &stream{ctx: ctx, cancel: cancel, id: id}
}

func (s *stream) send(be Backend) error {
	_, err := be.Call(s.ctx, s.id)
	return err
}
