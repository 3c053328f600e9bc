// expect: none
// The cancel func is created and called under the same unchanged guard
// (`if lock != nil`): the path where the first test held and the second did not
// cannot run. go vet's lostcancel reports it; nothing leaks.
package lease

import (
	"context"
	"time"
)

type Locker interface {
	Lock(ctx context.Context) error
	Unlock()
}

func Do(ctx context.Context, lock Locker, work func(context.Context) error) error {
	var cancel context.CancelFunc
	if lock != nil {
		ctx, cancel = context.WithTimeout(ctx, time.Second)
		if err := lock.Lock(ctx); err != nil {
			cancel()
			return err
		}
	}
	err := work(ctx)
	if lock != nil {
		lock.Unlock()
		cancel()
	}
	return err
}
