// expect: 22 CTX206
// A method that receives the caller's ctx calls the store with context.TODO():
// the caller's deadline never reaches the lookup.
package cache

import "context"

type Ref struct{ ID string }

type Store interface {
	Get(ctx context.Context, id string) (*Ref, error)
}

type Cache struct {
	store Store
}

func (c *Cache) Lookup(ctx context.Context, id string) (*Ref, error) {
	if id == "" {
		return nil, nil
	}
	return c.store.Get(context.TODO(), id)
}
