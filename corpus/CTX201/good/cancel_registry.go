// expect: none
// A package-level registry of cancel funcs (not contexts) lets Stop end a
// generation; the context itself travels through the call chain.
package stopper

import (
	"context"
	"sync"
)

var (
	mu    sync.Mutex
	stops = map[string]context.CancelFunc{}
	hooks sync.Map
)

// Run registers the generation's cancel func, runs it and unregisters it.
func Run(ctx context.Context, id string, gen func(context.Context) error) error {
	gctx, cancel := context.WithCancel(ctx)
	defer cancel()
	mu.Lock()
	stops[id] = cancel
	mu.Unlock()
	hooks.Store(id, func() { cancel() })
	defer func() {
		mu.Lock()
		delete(stops, id)
		mu.Unlock()
		hooks.Delete(id)
	}()
	return gen(gctx)
}
