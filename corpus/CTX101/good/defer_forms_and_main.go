// expect: none
// Deferred cancels (directly, in a closure, per-iteration in a func literal),
// a user-defined WithCancel method, and main.main, which is exempt: returning
// from it ends the process.
package main

import (
	"context"
	"fmt"
	"time"
)

type Pool[T any] interface {
	WithCancel(parent context.Context) (T, func())
}

func fetch(ctx context.Context, id int) string { return fmt.Sprint(id, ctx.Err()) }

// One defers the cancel func directly.
func One(parent context.Context, id int) string {
	ctx, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	return fetch(ctx, id)
}

// Many gives each iteration its own function scope.
func Many(parent context.Context, ids []int) []string {
	var out []string
	for _, id := range ids {
		func() {
			ctx, cancel := context.WithTimeout(parent, time.Second)
			defer func() {
				cancel()
			}()
			out = append(out, fetch(ctx, id))
		}()
	}
	return out
}

// Lease uses a pool's own WithCancel method, not context.WithCancel.
func Lease[T any](p Pool[T], parent context.Context) T {
	v, _ := p.WithCancel(parent)
	return v
}

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	if len(One(ctx, 1)) > 100 {
		cancel()
	}
	fmt.Println(Many(ctx, []int{2, 3}))
}
