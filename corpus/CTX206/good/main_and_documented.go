// expect: none
// main and init own the root context. (A function that documents its detached
// context, and one that discards its ctx parameter, are latent findings now:
// corpus/CTX206/bad/latent_documented_and_blank.go.)
package main

import (
	"context"
)

type Server interface {
	Serve(ctx context.Context) error
	Audit(ctx context.Context, event string) error
}

var srv Server

func init() {
	_ = srv.Audit(context.Background(), "init")
}

func main() {
	_ = srv.Serve(context.Background())
}
