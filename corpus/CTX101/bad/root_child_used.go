// expect: 24 CTX101 not called on every path
// expect: 35 CTX101 not called on every path
// expect: 45 CTX101 not called on every path
// expect: 56 CTX101 nothing can cancel
// Near misses of the unused-root-child exemption: the root child is handed to a
// goroutine before the early return (that goroutine waits on Done forever), the
// parent is a caller's context (the child stays in its children map), a
// WithTimeout of Background keeps its timer until the deadline, and a discarded
// cancel of a root child whose context is then used.
package worker

import (
	"context"
	"time"
)

type Job struct{ ID string }

func watch(ctx context.Context, j Job)     { <-ctx.Done() }
func run(ctx context.Context, j Job) error { return ctx.Err() }

// Start hands the context to a watcher, then returns early without cancelling it.
func Start(j Job, dryRun bool) error {
	ctx, cancel := context.WithCancel(context.Background())
	go watch(ctx, j)
	if dryRun {
		return nil
	}
	defer cancel()
	return run(ctx, j)
}

// Child's parent is the caller's context: the child stays registered with it.
func Child(parent context.Context, j Job, dryRun bool) error {
	ctx, cancel := context.WithCancel(parent)
	if dryRun {
		return nil
	}
	defer cancel()
	return run(ctx, j)
}

// Timed keeps the timer of its unused context until the deadline.
func Timed(j Job, dryRun bool) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	if dryRun {
		return nil
	}
	defer cancel()
	return run(ctx, j)
}

// Forever: nobody can ever close this context's Done channel, and the watcher
// waits on it.
func Forever(j Job) {
	ctx, _ := context.WithCancel(context.Background())
	go watch(ctx, j)
}
