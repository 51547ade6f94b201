package tool

import (
	"context"
	"testing"
)

func TestCallID(t *testing.T) {
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"none", context.Background(), ""},
		{"set", WithCallID(context.Background(), "call_1"), "call_1"},
		{"empty keeps ctx", WithCallID(WithCallID(context.Background(), "call_1"), ""), "call_1"},
	}
	for _, tc := range tests {
		if got := CallIDFrom(tc.ctx); got != tc.want {
			t.Errorf("%s: CallIDFrom = %q, want %q", tc.name, got, tc.want)
		}
	}
}
