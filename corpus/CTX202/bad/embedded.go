// expect: 15 CTX202
// A request wrapper embeds the caller's context so that it can be passed
// anywhere a context.Context is expected; it then outlives the call.
package queue

import (
	"context"
	"time"
)

// Item is one queued completion request. The embedded context makes every
// queued item carry its caller's deadline and values until the worker gets to
// it, long after the caller may have gone away.
type Item struct {
	context.Context
	Prompt   string
	Enqueued time.Time
}

func Enqueue(ctx context.Context, q chan<- Item, prompt string) {
	q <- Item{Context: ctx, Prompt: prompt, Enqueued: time.Now()}
}
