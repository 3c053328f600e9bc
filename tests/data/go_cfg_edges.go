// Control-flow shapes checked against go vet -lostcancel (Go 1.19): it reports
// the WithX calls on lines 15, 31, 45, 69, 80, 125 and 131, and ctxlint must agree.
package edge

import (
	"context"
	"errors"
	"testing"
	"time"
)

var bg = context.Background()

func f1(ch chan int) error {
	ctx, cancel := context.WithCancel(bg)
	i := 0
loop:
	if i < 3 {
		i++
		goto loop
	}
	_ = ctx
	if i > 5 {
		return errors.New("x")
	}
	cancel()
	return nil
}

func f2(ch chan int) {
	ctx, cancel := context.WithCancel(bg)
outer:
	for {
		select {
		case <-ch:
			break outer
		case <-ctx.Done():
			cancel()
			return
		}
	}
}

func f3(v interface{}) {
	_, cancel := context.WithTimeout(bg, time.Second)
	switch v.(type) {
	case int:
		cancel()
	case string:
		cancel()
	}
}

func f4(t *testing.T) {
	ctx, cancel := context.WithTimeout(bg, time.Second)
	t.Cleanup(cancel)
	_ = ctx
}

func f5(ch chan func()) {
	_, cancel := context.WithCancel(bg)
	select {
	case ch <- cancel:
	default:
	}
}

func f6(xs []int) int {
	_, cancel := context.WithCancel(bg)
	for _, x := range xs {
		if x > 0 {
			return x
		}
	}
	cancel()
	return 0
}

func f7(ch chan int) {
	_, cancel := context.WithCancel(bg)
	for range ch {
		cancel()
	}
}

func f8() (err error) {
	_, cancel := context.WithCancel(bg)
	defer func() {
		if err != nil {
			cancel()
		}
	}()
	return nil
}

func f9(v int) {
	_, cancel := context.WithCancel(bg)
	switch {
	case v > 1:
		cancel()
		break
	case v > 0:
		panic("x")
	default:
		cancel()
	}
}

func f10(v int) {
	_, cancel := context.WithCancel(bg)
	if v > 0 {
		panic("no")
	}
	func() {
		cancel()
	}()
}

func f11(v int) {
	var cancel context.CancelFunc
	for i := 0; i < v; i++ {
		if cancel != nil {
			cancel()
		}
		_, cancel = context.WithCancel(bg)
	}
}

func f12(v int) {
	for i := 0; i < v; i++ {
		_, cancel := context.WithCancel(bg)
		if i == 2 {
			continue
		}
		cancel()
	}
}
