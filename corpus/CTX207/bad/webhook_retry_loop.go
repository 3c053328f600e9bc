// expect: 30 CTX207
// A webhook handler starts a retry loop with the request's context and returns:
// the loop's every attempt after the response fails with "context canceled".
package gateway

import (
	"context"
	"net/http"
	"time"
)

type Notifier interface {
	Notify(ctx context.Context, id string) error
}

type Hooks struct{ n Notifier }

func (h *Hooks) run(ctx context.Context, id string) {
	for {
		if err := h.n.Notify(ctx, id); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

func (h *Hooks) Webhook(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("id")
	ctx := r.Context()
	go h.run(ctx, id)
	w.WriteHeader(http.StatusAccepted)
}
