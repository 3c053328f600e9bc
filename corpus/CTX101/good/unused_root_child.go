// expect: none
// A WithCancel child of a root context (Background, TODO, a WithValue of one)
// whose cancel func is lost before the context is ever used: the child is
// registered with no parent and has no timer, so nothing leaks. Shapes from a
// CLI's optional timeout (etcdctl snapshot save) and an early-return cache hit.
package cli

import (
	"context"
	"errors"
	"time"
)

type Saver interface {
	Save(ctx context.Context, path string) error
}

var errBadPath = errors.New("bad path")

// SaveSnapshot has no deadline unless asked for one: the first context is
// replaced before anything uses it.
func SaveSnapshot(s Saver, path string, timeout time.Duration) error {
	ctx, cancel := context.WithCancel(context.Background())
	if timeout > 0 {
		ctx, cancel = context.WithTimeout(context.Background(), timeout)
	}
	defer cancel()
	return s.Save(ctx, path)
}

type proxy struct {
	ctx    context.Context
	cancel context.CancelFunc
}

var proxies = map[string]*proxy{}

// proxyFor returns the cached proxy before the fresh context is touched.
func proxyFor(name string) (*proxy, error) {
	ctx, cancel := context.WithCancel(context.WithValue(context.TODO(), proxyKey{}, name))
	if p, ok := proxies[name]; ok {
		return p, nil
	}
	if name == "" {
		return nil, errBadPath
	}
	p := &proxy{ctx: ctx, cancel: cancel}
	proxies[name] = p
	return p, nil
}

type proxyKey struct{}

// Close ends the proxy's context.
func (p *proxy) Close() { p.cancel() }

// probe returns early before it touches its root child.
func probe(ready bool) {
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), proxyKey{}, "probe"))
	if !ready {
		return
	}
	defer cancel()
	<-ctx.Done()
}
