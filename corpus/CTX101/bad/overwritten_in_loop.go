// expect: 22 CTX101
// expect: 34 CTX101
// Beyond go vet: a cancel func overwritten by the next loop iteration before it
// is called, and `_ = cancel`, which silences the compiler but cancels nothing.
package poller

import (
	"context"
	"time"
)

type Source interface {
	Poll(ctx context.Context) ([]byte, error)
}

// Follow polls a source until it fails; each iteration replaces the previous
// iteration's cancel func without calling it.
func Follow(parent context.Context, src Source, out chan<- []byte) error {
	var ctx context.Context
	var cancel context.CancelFunc
	for {
		ctx, cancel = context.WithTimeout(parent, time.Second)
		b, err := src.Poll(ctx)
		if err != nil {
			cancel()
			return err
		}
		out <- b
	}
}

// Once silences the "declared and not used" error instead of cancelling.
func Once(parent context.Context, src Source) ([]byte, error) {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	_ = cancel
	return src.Poll(ctx)
}
