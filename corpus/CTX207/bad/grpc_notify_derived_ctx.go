// expect: 25 CTX207
// A gRPC method derives a one-minute context from the RPC's ctx and notifies in a
// goroutine it does not wait for: gRPC cancels the RPC's ctx (and every context
// derived from it) when the method returns.
package gateway

import (
	"context"
	"time"
)

type Notifier interface {
	Notify(ctx context.Context, id string) error
}

type Job struct{ ID string }
type Ack struct{ Accepted bool }

type Server struct {
	notifier Notifier
}

func (s *Server) Submit(ctx context.Context, job *Job) (*Ack, error) {
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	go func() {
		defer cancel()
		_ = s.notifier.Notify(tctx, job.ID)
	}()
	return &Ack{Accepted: true}, nil
}
