// expect: 15 CTX202
// A barrier recipe whose context is always context.TODO(): Enter blocks on
// the store and can never be cancelled (kind seen in etcd's contrib/recipes).
package recipes

import "context"

type Store interface {
	Wait(ctx context.Context, key string, n int) error
}

// Barrier blocks until n processes have entered.
type Barrier struct {
	store Store
	ctx   context.Context
	key   string
	n     int
}

func NewBarrier(s Store, key string, n int) *Barrier {
	return &Barrier{store: s, ctx: context.TODO(), key: key, n: n}
}

func (b *Barrier) Enter() error {
	return b.store.Wait(b.ctx, b.key, b.n)
}
