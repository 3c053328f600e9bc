// expect: none
// main and init own the root context; a function that documents its detached
// context; a request context that is `_` (not in scope).
package main

import (
	"context"
	"time"
)

type Server interface {
	Serve(ctx context.Context) error
	Audit(ctx context.Context, event string) error
}

var srv Server

func init() {
	_ = srv.Audit(context.Background(), "init")
}

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

func main() {
	_ = srv.Serve(context.Background())
}
