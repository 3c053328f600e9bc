// expect: 17 CTX202
// A client stream keeps its context next to its cancel func, and nothing in
// the package ever calls that cancel func (grpc/grpc-go#888): every stream's
// context stays registered with the connection's until the connection ends.
package stream

import (
	"context"
	"io"
)

type Transport interface {
	Recv(ctx context.Context) ([]byte, error)
}

type clientStream struct {
	ctx    context.Context
	cancel context.CancelFunc
	t      Transport
}

func newClientStream(parent context.Context, t Transport) *clientStream {
	cs := &clientStream{t: t}
	cs.ctx, cs.cancel = context.WithCancel(parent)
	return cs
}

func (cs *clientStream) RecvMsg() ([]byte, error) {
	b, err := cs.t.Recv(cs.ctx)
	if err == io.EOF {
		return nil, err
	}
	return b, err
}
