package activity

import "context"

type turnKey struct{}

// WithTurn marks ctx as turn n of a conversation step, so that the router records the turn of
// every tool call made in it.
func WithTurn(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, turnKey{}, n)
}

// TurnOf is the conversation turn ctx was marked with, 0 when none.
func TurnOf(ctx context.Context) int {
	n, _ := ctx.Value(turnKey{}).(int)
	return n
}
