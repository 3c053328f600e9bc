// expect: 46 CTX206
// The connection's own reads are exempt (hijacked: r.Context() is not cancelled
// for them), but the backend call still drops the request's trace and values.
package chat

import (
	"bufio"
	"context"
	"net/http"
)

type Backend interface {
	Publish(ctx context.Context, data []byte) error
}

type frameConn struct{ rw *bufio.ReadWriter }

func (f *frameConn) Read(ctx context.Context) (int, []byte, error) {
	b, err := f.rw.ReadBytes('\n')
	return 1, b, err
}

func upgrade(w http.ResponseWriter, r *http.Request) (*frameConn, error) {
	_, rw, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return nil, err
	}
	return &frameConn{rw: rw}, nil
}

type wsHandler struct{ backend Backend }

func (s *wsHandler) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	conn, err := upgrade(rw, r)
	if err != nil {
		return
	}
	for {
		_, data, err := conn.Read(context.Background())
		if err != nil {
			return
		}
		if len(data) == 0 {
			continue
		}
		_ = s.backend.Publish(context.Background(), data)
	}
}
