// expect: 28 CTX102
// Replicating KV-cache blocks to a peer with retries: each attempt's deferred
// cancel waits for the whole call, so a slow peer keeps every timer alive.
package replicate

import (
	"context"
	"errors"
	"fmt"
	"time"
)

type Peer interface {
	Push(ctx context.Context, blocks [][]byte) error
}

var errBusy = errors.New("peer busy")

type Replicator struct {
	PerTry   time.Duration
	Attempts int
}

// Push retries a busy peer; any other error ends the call.
func (r *Replicator) Push(ctx context.Context, p Peer, blocks [][]byte) error {
	for i := 0; i < r.Attempts; i++ {
		tryCtx, cancel := context.WithTimeout(ctx, r.PerTry)
		defer cancel()
		err := p.Push(tryCtx, blocks)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errBusy) {
			return fmt.Errorf("push attempt %d: %w", i, err)
		}
	}
	return errBusy
}
