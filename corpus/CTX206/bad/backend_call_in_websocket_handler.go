// expect: 25 CTX206
// The connection's own reads are exempt (hijacked: r.Context() is not cancelled
// for them), but the backend call still drops the request's trace and values.
package chat

import (
	"context"
	"net/http"

	"nhooyr.io/websocket"
)

type wsHandler struct{ backend Backend }

func (s *wsHandler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(rw, r, nil)
	if err != nil {
		return
	}
	for {
		_, data, err := conn.Read(context.Background())
		if err != nil {
			return
		}
		s.backend.Publish(context.Background(), data)
	}
}
