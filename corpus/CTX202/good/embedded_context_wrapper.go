// expect: none
// A type that *is* a context: it embeds context.Context to wrap a parent and
// overrides Value (silent: storing the parent is the type's job).
package tenantctx

import "context"

type tenantKey struct{}

type withTenant struct {
	context.Context
	tenant string
}

func (c withTenant) Value(key any) any {
	if key == (tenantKey{}) {
		return c.tenant
	}
	return c.Context.Value(key)
}

func WithTenant(parent context.Context, tenant string) context.Context {
	return withTenant{Context: parent, tenant: tenant}
}
