// expect: none
// A gRPC-style stream wrapper must hold the derived context: Context() takes no
// argument, so a field is the only way to hand it out.
package wrap

import "context"

type ServerStream interface {
	Context() context.Context
	SendMsg(m any) error
}

type taggedStream struct {
	ServerStream
	ctx context.Context
}

func (s *taggedStream) Context() context.Context { return s.ctx }

type key struct{}

func Tag(ss ServerStream, v string) ServerStream {
	return &taggedStream{ServerStream: ss, ctx: context.WithValue(ss.Context(), key{}, v)}
}
