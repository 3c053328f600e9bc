// expect: 21 CTX101
// expect: 29 CTX101
// A renamed import of "context" and generic code: a user-defined context type
// passed as the parent, and a generic helper that discards the cancel func.
package kvsync

import (
	stdctx "context"
	"time"
)

// Parent is a user-defined context interface with type parameters.
type Parent[D any] interface {
	stdctx.Context
	Describe() D
}

// Sync pushes one shard under a deadline derived from a generic parent; the
// cancel func is discarded.
func Sync[D any](p Parent[D], shard []byte) int {
	ctx, _ := stdctx.WithTimeout(p, 50*time.Millisecond)
	<-ctx.Done()
	return len(shard)
}

// Each runs fn for every item under one cancellable context that only the
// empty-input path releases.
func Each[T any](parent stdctx.Context, items []T, fn func(stdctx.Context, T)) {
	ctx, cancel := stdctx.WithCancel(parent)
	if len(items) == 0 {
		cancel()
		return
	}
	for _, it := range items {
		fn(ctx, it)
	}
}
