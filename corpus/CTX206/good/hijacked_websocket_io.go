// expect: none
// I/O on a connection taken over from the ResponseWriter: after Hijack (or a
// websocket Accept/Upgrade, which hijacks) net/http does not cancel r.Context()
// until ServeHTTP returns, so the read loop has no request cancellation to inherit.
package chat

import (
	"context"
	"net/http"

	"nhooyr.io/websocket"
)

type wsHandler struct{ hub *Hub }

func (s *wsHandler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(rw, r, &websocket.AcceptOptions{})
	if err != nil {
		return
	}
	defer conn.Close(websocket.StatusNormalClosure, "")
	for {
		_, data, err := conn.Read(context.Background())
		if err != nil {
			return
		}
		s.hub.Broadcast(data)
	}
}

func rawHijack(w http.ResponseWriter, r *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		return
	}
	c, _, err := hj.Hijack()
	if err != nil {
		return
	}
	serveRaw(c)
	c.SetDeadlineFrom(context.Background())
}
