// expect: none
// Each iteration's context is handed to a goroutine (and a child context to a
// callback): they outlive the iteration, so the cancels wait for the function.
package fan

import (
	"context"
	"sync"
	"time"
)

type Peer interface {
	Sync(ctx context.Context) error
}

func SyncAll(ctx context.Context, peers []Peer, after func(time.Duration, func())) {
	var wg sync.WaitGroup
	for _, p := range peers {
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		wg.Add(1)
		go func(p Peer) {
			defer wg.Done()
			_ = p.Sync(pctx)
		}(p)
	}
	wg.Wait()
	for _, p := range peers {
		rctx, cancel := context.WithCancel(ctx)
		defer cancel()
		after(time.Second, func() { _ = p.Sync(rctx) })
	}
}
