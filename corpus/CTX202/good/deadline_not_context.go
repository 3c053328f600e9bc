// expect: none
// A request record keeps the deadline and a done channel copied out of the
// context, which is what later code needs, not the context itself.
package admission

import (
	"context"
	"time"
)

type Ticket struct {
	Tenant   string
	Deadline time.Time
	Done     <-chan struct{}
	Err      func() error
}

func Admit(ctx context.Context, tenant string) Ticket {
	dl, _ := ctx.Deadline()
	return Ticket{Tenant: tenant, Deadline: dl, Done: ctx.Done(), Err: ctx.Err}
}
