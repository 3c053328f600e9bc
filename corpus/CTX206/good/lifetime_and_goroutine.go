// expect: none
// A constructor gives the connection a lifetime context of its own (it must
// outlive the dial ctx), and a goroutine started for work that outlives the
// request (no go.mod >= 1.21 here, so no context.WithoutCancel yet).
package conn

import "context"

type Conn struct {
	ctx    context.Context
	cancel context.CancelFunc
	events chan string
}

func Dial(ctx context.Context, addr string) (*Conn, error) {
	c := &Conn{events: make(chan string)}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go c.publish(context.Background())
	return c, ctx.Err()
}

func (c *Conn) publish(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.events:
		}
	}
}

func (c *Conn) Close() { c.cancel() }
