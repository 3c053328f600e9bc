// expect: none
// A cancel func armed on a timer that still runs on every return is used (the
// timer calls it, as go vet counts it); a stopped timer with a deferred cancel
// leaks nothing either.
package watchdog

import (
	"context"
	"time"
)

type Pinger interface {
	Ping(ctx context.Context) error
}

type Probe struct {
	up    Pinger
	limit time.Duration
}

func (p *Probe) Armed(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, 10*p.limit)
	time.AfterFunc(p.limit, cancel)
	return p.up.Ping(ctx)
}

func (p *Probe) StoppedOnFailureOnly(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, 10*p.limit)
	t := time.AfterFunc(p.limit, cancel)
	if err := p.up.Ping(ctx); err != nil {
		t.Stop()
		cancel()
		return err
	}
	return nil
}

func (p *Probe) Deferred(parent context.Context) error {
	ctx, cancel := context.WithTimeout(parent, 10*p.limit)
	defer cancel()
	stall := time.AfterFunc(p.limit, cancel)
	defer stall.Stop()
	return p.up.Ping(ctx)
}
