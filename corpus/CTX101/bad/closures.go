// expect: 25 CTX101
// expect: 37 CTX101
// Function literals are analysed as their own functions: a goroutine that
// derives a context and loses its cancel func is reported at the WithX call.
package prefetch

import (
	"context"
	"sync"
	"time"
)

type Cache interface {
	Warm(ctx context.Context, key string) error
}

// Prefetch warms keys in background goroutines.
func Prefetch(parent context.Context, c Cache, keys []string) {
	var wg sync.WaitGroup
	for _, k := range keys {
		k := k
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(parent, 2*time.Second)
			if err := c.Warm(ctx, k); err != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
}

// warmOne is a func literal kept in a package variable; the deadline context
// is never released on the success path.
var warmOne = func(parent context.Context, c Cache, key string) error {
	ctx, cancel := context.WithDeadline(parent, time.Now().Add(time.Second))
	err := c.Warm(ctx, key)
	if err != nil {
		cancel()
		return err
	}
	return nil
}
