// expect: 25 CTX201
// expect: 26 CTX201
// Untyped package-level containers that end up holding request contexts.
package audit

import (
	"context"
	"net/http"
	"sync"
)

var (
	mu       sync.Mutex
	sessions = map[string]any{}
	pending  []interface{}
)

type Event struct {
	Session string
	Kind    string
}

func record(w http.ResponseWriter, r *http.Request) {
	mu.Lock()
	sessions[r.Header.Get("X-Session")] = r.Context()
	pending = append(pending, r.Context())
	mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

func flush(ctx context.Context) []Event {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Event, 0, len(sessions))
	for id := range sessions {
		out = append(out, Event{Session: id, Kind: "flush"})
	}
	pending = nil
	return out
}
