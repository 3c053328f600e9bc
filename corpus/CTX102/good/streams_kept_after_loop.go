// expect: none
// Each iteration's context backs a watch stream kept in a slice and read after
// the loop: the contexts must outlive their iteration, and the deferred cancels
// end them when the function returns (the loop's intent).
package watch

import "context"

type Stream interface{ Recv() (string, error) }

type Client interface {
	Watch(ctx context.Context, key string) (Stream, error)
}

func First(ctx context.Context, c Client, keys []string) ([]string, error) {
	var streams []Stream
	for _, k := range keys {
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		s, err := c.Watch(wctx, k)
		if err != nil {
			return nil, err
		}
		streams = append(streams, s)
	}
	out := make([]string, 0, len(streams))
	for _, s := range streams {
		m, err := s.Recv()
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
