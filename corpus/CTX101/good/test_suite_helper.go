// expect: none
// A test-suite helper outside a _test.go file (it imports "testing"): the
// contexts it hands to tests leak for one test run at most.
package grpctesting

import (
	"context"
	"testing"
	"time"
)

// SimpleCtx gives each test call a bounded context.
func SimpleCtx(t testing.TB) context.Context {
	t.Helper()
	ctx, _ := context.WithTimeout(context.TODO(), 2*time.Second)
	return ctx
}
