// expect: none
// `_ = ctx` inside a function next to `var _ io.Closer = T{}` (a compile-time interface check):
// the blank identifier stores nothing (trpc-agent-go, fresh review).
package p

import (
	"context"
	"io"
)

type T struct{}

func (T) Close() error { return nil }

var _ io.Closer = T{}

func F(ctx context.Context) error {
	_ = ctx
	return nil
}
