// expect: 23 CTX102
// expect: 32 CTX102
// A bounded retry loop and a reused cancel variable: the message says how many
// contexts are at stake, and the fix names each context's cancel func apart.
package retry

import (
	"context"
	"errors"
	"time"
)

type Conn interface {
	Dial(ctx context.Context) error
	Hello(ctx context.Context) error
}

var errBusy = errors.New("busy")

func Connect(ctx context.Context, c Conn) error {
	for attempt := 0; attempt < 5; attempt++ {
		dctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		err := c.Dial(dctx)
		if err == nil {
			return nil
		}
		if !errors.Is(err, errBusy) {
			return err
		}
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if err := c.Hello(hctx); err != nil {
			return err
		}
	}
	return errBusy
}
