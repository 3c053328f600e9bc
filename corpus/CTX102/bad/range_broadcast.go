// expect: 24 CTX102
// Broadcasting an adapter unload to every replica: the deferred closure runs
// only when Broadcast returns, after every replica's context was created.
package adapters

import (
	"context"
	"log"
	"time"
)

type Replica interface {
	Unload(ctx context.Context, adapterID string) error
}

// Broadcast tells each replica to unload an adapter.
func Broadcast(ctx context.Context, replicas map[string]Replica, adapterID string) int {
	failed := 0
	for name, rep := range replicas {
		if rep == nil {
			continue
		}
		rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer func() {
			cancel()
		}()
		if err := rep.Unload(rctx, adapterID); err != nil {
			log.Printf("unload %s on %s: %v", adapterID, name, err)
			failed++
		}
	}
	return failed
}
