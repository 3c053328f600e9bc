// expect: none
// A test binary's package-level contexts serve no request: a root for fixtures and a
// pre-cancelled context that exercises the error path.
package server

import (
	"context"
	"testing"
)

var testCtx = context.Background()

var canceledCtx context.Context

func init() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	canceledCtx = ctx
}

func TestShutdown(t *testing.T) {
	if err := shutdown(canceledCtx); err != context.Canceled {
		t.Fatal(err)
	}
	_ = testCtx
}

func shutdown(ctx context.Context) error { return ctx.Err() }
