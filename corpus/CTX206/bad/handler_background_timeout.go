// expect: 21 CTX206
// An HTTP handler gives its backend call a fresh context.Background(): the
// client's disconnect, its deadline and its trace stop here (seed 000).
package gateway

import (
	"context"
	"net/http"
	"time"
)

type Backend interface {
	Complete(ctx context.Context, prompt string) (string, error)
}

type Handler struct {
	backend Backend
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := h.backend.Complete(ctx, r.URL.Query().Get("q"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	_, _ = w.Write([]byte(out))
}
