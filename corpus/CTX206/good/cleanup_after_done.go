// expect: none
// Fresh contexts where they are the point: a deferred cleanup, a shutdown after
// the caller's ctx is done, and a cleanup on an error path.
package worker

import (
	"context"
	"time"
)

type Store interface {
	Flush(ctx context.Context) error
	Release(ctx context.Context, id string) error
	Acquire(ctx context.Context, id string) error
}

func Run(ctx context.Context, s Store, id string) error {
	defer s.Flush(context.Background())
	if err := s.Acquire(ctx, id); err != nil {
		_ = s.Release(context.Background(), id)
		return err
	}
	<-ctx.Done()
	cctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return s.Release(cctx, id)
}
