// expect: 16 CTX206
// A func literal called on the spot sees its enclosing function's ctx; the
// retry inside it still starts from context.Background().
package retry

import "context"

type Client interface {
	Call(ctx context.Context, method string) error
}

func Do(ctx context.Context, c Client, methods []string) error {
	for _, m := range methods {
		if err := func() error {
			// one attempt per method
			return c.Call(context.Background(), m)
		}(); err != nil {
			return err
		}
	}
	return nil
}
