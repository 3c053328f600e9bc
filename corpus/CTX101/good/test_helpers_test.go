// expect: none
// Test code: a leak lasts one test run at most (GoFacts.is_test_code). A
// `_test.go` file discarding a per-test timeout's cancel func.
package router

import (
	"context"
	"testing"
	"time"
)

func dial(ctx context.Context, addr string) error { return ctx.Err() }

func TestDialTimeout(t *testing.T) {
	ctx, _ := context.WithTimeout(context.Background(), 50*time.Millisecond)
	if err := dial(ctx, "10.0.0.1:9"); err == nil {
		t.Fatal("want a timeout")
	}
}
