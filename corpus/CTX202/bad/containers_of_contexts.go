// expect: 19 CTX202
// expect: 21 CTX202
// expect: 22 CTX202
// A scheduler keeps per-request contexts in maps, slices and pointers.
package scheduler

import (
	stdctx "context"
	"sync"
)

type Seq struct {
	ID     uint64
	Tokens []int32
}

type Scheduler struct {
	mu      sync.Mutex
	byReq   map[string]stdctx.Context
	waiting []Seq
	parents []stdctx.Context
	current *stdctx.Context
}

func (s *Scheduler) Add(ctx stdctx.Context, id string, seq Seq) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byReq[id] = ctx
	s.waiting = append(s.waiting, seq)
	s.parents = append(s.parents, ctx)
	s.current = &ctx
}
