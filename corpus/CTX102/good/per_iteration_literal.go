// expect: none
// Each iteration runs in its own function literal, so its defer runs at the
// end of the iteration.
package embed

import (
	"context"
	"time"
)

type Encoder interface {
	Encode(ctx context.Context, text string) ([]float32, error)
}

// EncodeAll embeds every text with a per-text deadline.
func EncodeAll(ctx context.Context, enc Encoder, texts []string) [][]float32 {
	out := make([][]float32, 0, len(texts))
	for _, t := range texts {
		func() {
			ectx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			defer cancel()
			if v, err := enc.Encode(ectx, t); err == nil {
				out = append(out, v)
			}
		}()
	}
	return out
}
