// expect: 10 CTX202
// Subscribe returns the struct, but the cancel func sits in an unexported field
// that nothing in the package calls: callers cannot cancel it either, so every
// subscription's context stays registered with its parent.
package stream

import "context"

type Subscription struct {
	Ctx    context.Context
	cancel context.CancelFunc
	Topic  string
}

func Subscribe(parent context.Context, topic string) *Subscription {
	ctx, cancel := context.WithCancel(parent)
	return &Subscription{Ctx: ctx, cancel: cancel, Topic: topic}
}
