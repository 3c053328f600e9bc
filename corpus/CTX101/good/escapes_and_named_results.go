// expect: none
// The cancel func escapes (returned, named result with a naked return, stored,
// passed on, captured by a goroutine), or is assigned to a variable of an outer
// function that calls it.
package session

import (
	"context"
	"time"
)

type Stream struct {
	stop context.CancelFunc
}

// Open returns the cancel func to its caller through named results.
func Open(parent context.Context) (ctx context.Context, cancel context.CancelFunc) {
	ctx, cancel = context.WithTimeout(parent, time.Minute)
	return
}

// openLit is the same shape as a function literal.
var openLit = func(parent context.Context) (ctx context.Context, cancel context.CancelFunc) {
	ctx, cancel = context.WithCancel(parent)
	return
}

// Start stores the cancel func in the stream that owns it.
func Start(parent context.Context) (*Stream, context.Context) {
	ctx, cancel := context.WithCancel(parent)
	return &Stream{stop: cancel}, ctx
}

// Watch hands the cancel func to a goroutine that calls it when done fires.
func Watch(parent context.Context, done <-chan struct{}) context.Context {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		<-done
		cancel()
	}()
	return ctx
}

// Register passes the cancel func to a registry.
func Register(parent context.Context, reg func(context.CancelFunc)) context.Context {
	ctx, cancel := context.WithCancel(parent)
	reg(cancel)
	return ctx
}

// Outer assigns the outer variable inside a func literal and calls it after.
func Outer(parent context.Context) {
	var cancel func()
	func() {
		_, cancel = context.WithCancel(parent)
	}()
	cancel()
}
