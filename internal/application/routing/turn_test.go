package routing

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// A call made in a conversation's turn records that turn; a call outside one records none.
func TestRecordCarriesTheConversationTurn(t *testing.T) {
	sink := &memSink{}
	r := newTestRouter(t, Options{Activity: sink}, builtins())
	r.CallTool(activity.WithTurn(context.Background(), 2), "Read", json.RawMessage(`{"file_path":"a"}`))
	r.CallTool(context.Background(), "Read", json.RawMessage(`{"file_path":"a"}`))
	recs := sink.all()
	if len(recs) != 2 || recs[0].Turn != 2 || recs[1].Turn != 0 {
		t.Fatalf("records %+v", recs)
	}
}
