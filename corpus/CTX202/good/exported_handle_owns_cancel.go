// expect: none
// Open hands the derived context and its cancel func to the caller in exported
// fields: the importing package owns Cancel and calls it when the stream is done.
package stream

import "context"

type Subscription struct {
	Ctx    context.Context
	Cancel context.CancelFunc
	Topic  string
}

func Subscribe(parent context.Context, topic string) *Subscription {
	ctx, cancel := context.WithCancel(parent)
	return &Subscription{Ctx: ctx, Cancel: cancel, Topic: topic}
}
