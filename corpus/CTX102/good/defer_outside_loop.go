// expect: none
// One context for the whole loop, deferred once; goroutines started in the loop
// defer their own cancel, which runs when each goroutine returns.
package batch

import (
	"context"
	"sync"
	"time"
)

type Job func(ctx context.Context) error

// RunAll runs jobs in sequence under one deadline.
func RunAll(parent context.Context, jobs []Job) error {
	ctx, cancel := context.WithTimeout(parent, time.Minute)
	defer cancel()
	for _, j := range jobs {
		if err := j(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Fan runs jobs concurrently, each with its own deadline.
func Fan(parent context.Context, jobs []Job) {
	var wg sync.WaitGroup
	for _, j := range jobs {
		j := j
		jctx, cancel := context.WithTimeout(parent, time.Second)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer cancel()
			_ = j(jctx)
		}()
	}
	wg.Wait()
}
