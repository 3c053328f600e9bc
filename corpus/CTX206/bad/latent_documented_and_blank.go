// expect: 27 CTX206 [low]
// expect: 33 CTX206 [low]
// expect: 39 CTX206
// Latent: a detachment its comment documents (the comment makes the rule less
// sure, not silent), and a helper that discards the ctx it is handed (whether
// its callers hand in a live one is not shown). Manifest: a gRPC method that
// discards the ctx gRPC gives it and calls the backend under Background().
package audit

import (
	"context"
	"time"
)

type Server interface {
	Audit(ctx context.Context, event string) error
}

type Req struct{ Event string }
type Resp struct{ OK bool }

var srv Server

// Audit records the event with a context of its own on purpose: the audit
// must outlive the request that triggered it.
func Audit(ctx context.Context, event string) {
	actx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = srv.Audit(actx, event)
}

func Ignore(_ context.Context, event string) {
	_ = srv.Audit(context.TODO(), event)
}

type API struct{}

func (a *API) Record(_ context.Context, req *Req) (*Resp, error) {
	bg := context.Background()
	if err := srv.Audit(bg, req.Event); err != nil {
		return nil, err
	}
	return &Resp{OK: true}, nil
}
