// expect: 19 CTX202
// A function-local struct type that carries the context into a worker
// goroutine through a channel.
package warmup

import (
	"context"
	"time"
)

type Model interface {
	Forward(ctx context.Context, batch [][]int32) error
}

// Warm sends warm-up batches to a worker; each message carries the caller's
// context, which stays reachable for as long as the message is queued.
func Warm(ctx context.Context, m Model, batches [][][]int32) {
	type job struct {
		ctx   context.Context
		batch [][]int32
	}
	work := make(chan job, len(batches))
	for _, b := range batches {
		work <- job{ctx, b}
	}
	close(work)
	for w := range work {
		_ = m.Forward(w.ctx, w.batch)
		time.Sleep(time.Millisecond)
	}
}
