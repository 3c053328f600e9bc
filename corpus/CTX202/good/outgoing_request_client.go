// expect: none
// A client type builds its outgoing requests for the context it was made with;
// its Do takes an outgoing *http.Request (not a caller's context): no ctx
// parameter is ignored.
package client

import (
	"context"
	"net/http"
)

type Client struct {
	ctx context.Context
	hc  *http.Client
}

func (c *Client) NewRequest(url string) (*http.Request, error) {
	return http.NewRequestWithContext(c.ctx, http.MethodGet, url, nil)
}

func (c *Client) Do(req *http.Request) (*http.Response, error) {
	return c.hc.Do(req.WithContext(c.ctx))
}
