// expect: none
// Contexts in local maps and slices, including a local map that shadows a
// package-level name, live only as long as the call.
package fanout

import (
	"context"
	"time"
)

var byShard = map[int]string{}

// Scatter derives one context per shard and keeps them in a local map.
func Scatter(parent context.Context, shards []int) int {
	byShard := map[int]context.Context{}
	var all []context.Context
	var cancels []context.CancelFunc
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	for _, s := range shards {
		ctx, cancel := context.WithTimeout(parent, time.Second)
		cancels = append(cancels, cancel)
		byShard[s] = ctx
		all = append(all, ctx)
	}
	return len(byShard) + len(all)
}
