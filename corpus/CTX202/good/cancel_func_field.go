// expect: none
// A worker keeps its cancel func (to stop the loop) and hooks that take a
// context, never the context itself.
package worker

import (
	"context"
	"time"
)

type Worker struct {
	cancel   context.CancelFunc
	onTick   func(ctx context.Context) error
	interval time.Duration
	done     chan struct{}
}

func Start(parent context.Context, every time.Duration, tick func(context.Context) error) *Worker {
	ctx, cancel := context.WithCancel(parent)
	w := &Worker{cancel: cancel, onTick: tick, interval: every, done: make(chan struct{})}
	go w.loop(ctx)
	return w
}

func (w *Worker) loop(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = w.onTick(ctx)
		}
	}
}

func (w *Worker) Stop() {
	w.cancel()
	<-w.done
}
