// expect: none
// A test's table loop: its contexts pile up for one test run at most.
package table

import (
	"context"
	"testing"
	"time"
)

func TestTimeouts(t *testing.T) {
	for _, d := range []time.Duration{time.Millisecond, time.Second} {
		ctx, cancel := context.WithTimeout(context.Background(), d)
		defer cancel()
		if ctx.Err() != nil {
			t.Fatal("expired early")
		}
	}
}
