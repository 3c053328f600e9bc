// expect: 31 CTX102
// A token stream relay with a renamed import of "context": every forwarded
// token defers the cancel of its own write deadline until the stream ends.
package relay

import (
	stdctx "context"
	"time"
)

type Token struct {
	Seq  int
	Text string
}

type Client interface {
	Write(ctx stdctx.Context, t Token) error
}

// Relay forwards tokens until the input closes or the client fails.
func Relay(ctx stdctx.Context, in <-chan Token, c Client) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case t, ok := <-in:
			if !ok {
				return nil
			}
			wctx, cancel := stdctx.WithDeadline(ctx, time.Now().Add(100*time.Millisecond))
			defer cancel()
			if t.Text == "" {
				break
			}
			if err := c.Write(wctx, t); err != nil {
				return err
			}
		}
	}
}
