// expect: none
// The cancel func is called at the end of every iteration and before the
// early continue and return.
package health

import (
	"context"
	"time"
)

type Backend interface {
	Ping(ctx context.Context) error
}

// Check pings every backend with its own short deadline.
func Check(ctx context.Context, backends []Backend) (int, error) {
	healthy := 0
	for _, b := range backends {
		pctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		err := b.Ping(pctx)
		if err != nil {
			cancel()
			if ctx.Err() != nil {
				return healthy, ctx.Err()
			}
			continue
		}
		healthy++
		cancel()
	}
	return healthy, nil
}
