package tool

import (
	"context"
	"testing"
)

func TestProgressInContext(t *testing.T) {
	if ProgressFrom(context.Background()) != nil {
		t.Fatal("a bare context carries a progress func")
	}
	var got []Progress
	ctx := WithProgress(context.Background(), func(p Progress) { got = append(got, p) })
	ProgressFrom(WithVariant(ctx, VariantRead))(Progress{Progress: 1, Total: 2, Message: "half"})
	if len(got) != 1 || got[0] != (Progress{Progress: 1, Total: 2, Message: "half"}) {
		t.Errorf("reports = %+v", got)
	}
}
