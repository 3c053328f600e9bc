// expect: none
// I/O on a connection taken over from the ResponseWriter: after Hijack (or a
// websocket Accept/Upgrade, which hijacks) net/http does not cancel r.Context()
// until ServeHTTP returns, so the read loop has no request cancellation to inherit.
package chat

import (
	"bufio"
	"context"
	"net"
	"net/http"
)

type Hub struct{ out chan []byte }

func (h *Hub) Broadcast(b []byte) { h.out <- b }

// wsConn stands in for a websocket library's connection (nhooyr.io/websocket).
type wsConn struct {
	c  net.Conn
	rw *bufio.ReadWriter
}

func (w *wsConn) Read(ctx context.Context) (int, []byte, error) {
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	line, err := w.rw.ReadBytes('\n')
	return 1, line, err
}

func (w *wsConn) Close() error { return w.c.Close() }

// accept upgrades the request: it hijacks the writer's connection.
func accept(w http.ResponseWriter, r *http.Request) (*wsConn, error) {
	c, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return nil, err
	}
	return &wsConn{c: c, rw: rw}, nil
}

type wsHandler struct{ hub *Hub }

func (s *wsHandler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	conn, err := accept(rw, r)
	if err != nil {
		return
	}
	defer conn.Close()
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
	c, brw, err := hj.Hijack()
	if err != nil {
		return
	}
	ws := &wsConn{c: c, rw: brw}
	defer ws.Close()
	_, _, _ = ws.Read(context.Background())
}
