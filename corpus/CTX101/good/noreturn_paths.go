// expect: none
// Every path either uses the cancel func, ends in a call that never returns
// (log.Fatal, os.Exit, t.FailNow, panic, runtime.Goexit), or loops forever.
package worker

import (
	"context"
	"log"
	"os"
	"runtime"
	"testing"
)

func step(ctx context.Context) error { return ctx.Err() }

// Mode picks a behaviour; the fallthrough case ends in os.Exit.
func Mode(parent context.Context, mode int) {
	ctx, cancel := context.WithCancel(parent)
	switch mode {
	case 0:
		new(testing.T).FailNow()
	case 1:
		log.Fatal("mode 1 retired")
	case 2:
		cancel()
	case 3:
		log.Println(step(ctx))
		fallthrough
	default:
		os.Exit(1)
	}
}

// Serve loops forever on the else branch.
func Serve(parent context.Context, once bool) {
	ctx, cancel := context.WithCancel(parent)
	if once {
		cancel()
	} else {
		for {
			_ = step(ctx)
		}
	}
}

// Wait blocks until a case runs; the only case panics, so the code after the
// select is unreachable and never returns without cancelling.
func Wait(parent context.Context, ch <-chan int) {
	ctx, cancel := context.WithCancel(parent)
	select {
	case <-ch:
		panic(step(ctx))
	}
	cancel()
}

// Quit ends the goroutine with runtime.Goexit on the failure path.
func Quit(parent context.Context) {
	ctx, cancel := context.WithCancel(parent)
	if step(ctx) != nil {
		runtime.Goexit()
	}
	cancel()
}
