// expect: none
// A goroutine that only watches the request's context to stop itself: it hands
// the context to nothing, so the cancellation is what it waits for.
package gateway

import "net/http"

type Ticker struct {
	ticks chan int
}

func (t *Ticker) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case t.ticks <- 1:
			}
		}
	}()
	w.WriteHeader(http.StatusOK)
}
