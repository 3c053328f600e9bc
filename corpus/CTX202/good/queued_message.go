// expect: none
// A function-local message type carries its caller's context through a
// channel to a worker that honours it: the context travels with the work.
package warmup

import "context"

type Model interface {
	Forward(ctx context.Context, batch [][]int32) error
}

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
		if w.ctx.Err() != nil {
			continue
		}
		_ = m.Forward(w.ctx, w.batch)
	}
}
