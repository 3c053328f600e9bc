// expect: 24 CTX201
// In-flight generations are tracked in a sync.Map from request id to the
// request's context; the type does not say so, the Store does.
package inflight

import (
	"context"
	"sync"
)

var (
	generations sync.Map
	stops       sync.Map
)

type Request struct {
	ID     string
	Prompt string
}

// Begin records a generation so that Stop can find it.
func Begin(ctx context.Context, r Request) context.Context {
	gctx, cancel := context.WithCancel(ctx)
	generations.Store(r.ID, gctx)
	stops.Store(r.ID, cancel)
	return gctx
}

// Stop cancels a generation.
func Stop(id string) {
	if c, ok := stops.LoadAndDelete(id); ok {
		c.(context.CancelFunc)()
	}
	generations.Delete(id)
}
