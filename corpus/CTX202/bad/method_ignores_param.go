// expect: 16 CTX202
// A KV client keeps the context it was built with and its Get ignores the
// caller's: a request's deadline never reaches the backend.
package kvclient

import (
	"context"
	"time"
)

type Backend interface {
	Get(ctx context.Context, key string) ([]byte, error)
}

type Client struct {
	ctx     context.Context
	backend Backend
	timeout time.Duration
}

func New(ctx context.Context, b Backend) *Client {
	return &Client{ctx: ctx, backend: b, timeout: time.Second}
}

// Get takes a ctx for the interface's sake, then uses the stored one.
func (c *Client) Get(ctx context.Context, key string) ([]byte, error) {
	return c.backend.Get(c.ctx, key)
}
