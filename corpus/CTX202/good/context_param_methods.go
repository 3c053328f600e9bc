// expect: none
// The service takes the context as the first parameter of every method, and
// its handler type is a function over a context.
package service

import (
	"context"
	"errors"
)

type Handler func(ctx context.Context, prompt string) (string, error)

type Service struct {
	name     string
	handlers map[string]Handler
}

var errUnknownRoute = errors.New("unknown route")

func (s *Service) Call(ctx context.Context, route, prompt string) (string, error) {
	h, ok := s.handlers[route]
	if !ok {
		return "", errUnknownRoute
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return h(ctx, prompt)
}
