// expect: 24 CTX101
// expect: 40 CTX101
// A watchdog arms the cancel func on a timer and stops the timer once the work
// is under way: after the stop nothing calls the cancel func (time.AfterFunc and
// context.AfterFunc alike), so the context and its timer outlive the call.
package watchdog

import (
	"context"
	"time"
)

type Pinger interface {
	Ping(ctx context.Context) error
	Stream(ctx context.Context) (<-chan string, error)
}

type Probe struct {
	up    Pinger
	limit time.Duration
}

func (p *Probe) FirstByte(parent context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(parent, 10*p.limit)
	stall := time.AfterFunc(p.limit, cancel)
	ch, err := p.up.Stream(ctx)
	if err != nil {
		return "", err
	}
	for s := range ch {
		stall.Stop()
		return s, nil
	}
	return "", nil
}

// Check ties the probe to the server's shutdown: stop() unhooks the cancel func,
// and the success path never calls it.
func (p *Probe) Check(parent, server context.Context) error {
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(server, cancel)
	if err := p.up.Ping(ctx); err != nil {
		cancel()
		return err
	}
	stop()
	return nil
}
