// expect: 27 CTX101
// expect: 38 CTX101
// expect: 51 CTX101
// expect: 68 CTX101
// A model router's dispatch paths: the cancel func is used on some branches of
// an if, a switch or a select, and another branch falls through to a return.
package router

import (
	"context"
	"log"
	"os"
	"time"
)

type Request struct {
	Model  string
	Tenant string
	Tier   int
}

func send(ctx context.Context, r Request) error { return ctx.Err() }

// Dispatch cancels only on the error path; the success path returns with the
// context still registered on its parent.
func Dispatch(parent context.Context, r Request) error {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	if err := send(ctx, r); err != nil {
		cancel()
		return err
	}
	return nil
}

// Warm has a bounded retry loop in the else branch; it ends and falls off the
// end of the function without cancelling.
func Warm(parent context.Context, r Request, ok bool) {
	ctx, cancel := context.WithCancel(parent)
	if ok {
		cancel()
	} else {
		for i := 0; i < 3; i++ {
			_ = send(ctx, r)
		}
	}
}

// ByTier cancels in one case; tier 3 prints and falls out of the switch to the
// implicit return.
func ByTier(parent context.Context, r Request) {
	ctx, cancel := context.WithCancel(parent)
	switch r.Tier {
	case 0:
		log.Fatal("tier 0 is not served")
	case 1:
		cancel()
	case 2:
		os.Exit(2)
	case 3:
		log.Println("tier 3", send(ctx, r))
	default:
		panic("unknown tier")
	}
}

// Race waits for the first of two events; only one case cancels.
func Race(parent context.Context, r Request, done <-chan struct{}, results chan<- error) {
	ctx, cancel := context.WithCancel(parent)
	select {
	case <-done:
		cancel()
	case results <- send(ctx, r):
		log.Println("sent")
	default:
		os.Exit(1)
	}
}
