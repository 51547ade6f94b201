package activity

import (
	"context"
	"testing"
)

func TestTurnTravelsInTheContext(t *testing.T) {
	if n := TurnOf(context.Background()); n != 0 {
		t.Fatalf("an unmarked context has turn %d", n)
	}
	ctx := WithTurn(context.Background(), 3)
	if n := TurnOf(WithTurn(ctx, 4)); n != 4 {
		t.Fatalf("turn %d, want the innermost 4", n)
	}
	if n := TurnOf(ctx); n != 3 {
		t.Fatalf("turn %d, want 3", n)
	}
}
