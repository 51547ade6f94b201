package report

import (
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/activity"
)

// A connection is a row and a mark on its step's lane, reads "network" with what it reached,
// and counts as a connection, not a tool call nor a refusal.
func TestConnectionsOnTheTimeline(t *testing.T) {
	in := sample()
	in.Calls = append(in.Calls,
		activity.Record{ID: "n1", Time: mt0.Add(5 * time.Second), Step: "agent", Tool: "Bash", Kind: activity.KindNetwork, Outcome: activity.OutcomeSuccess,
			Network: &activity.Connection{Host: "127.0.0.1", Port: 8080, Protocol: "http", Method: "GET", Path: "/a", BytesIn: 300, BytesOut: 70, Decision: "allow", Rule: "allow 127.0.0.1:8080"}},
		activity.Record{ID: "n2", Time: mt0.Add(5500 * time.Millisecond), Step: "agent", Tool: "Bash", Kind: activity.KindNetwork, Outcome: activity.OutcomeRefused,
			Network: &activity.Connection{Host: "evil.test", Port: 443, Protocol: "connect", Decision: "deny", Rule: "not in the allow list"}})
	v := Build(in)
	if v.Totals != (Totals{Calls: 4, Succeeded: 2, Refused: 1, Errors: 1, Connections: 2}) {
		t.Errorf("totals %+v", v.Totals)
	}
	if len(v.Lanes[1].Marks) != 5 {
		t.Errorf("agent lane has %d marks, want 5", len(v.Lanes[1].Marks))
	}
	var got []string
	for _, c := range v.Calls {
		if c.Tool == "network" {
			got = append(got, c.Source+"|"+c.Args+"|"+c.Decision+"|"+c.Outcome)
		}
	}
	want := "http|GET 127.0.0.1:8080/a (in 300 B, out 70 B)|allow: allow 127.0.0.1:8080|success;connect|evil.test:443 (in 0 B, out 0 B)|deny: not in the allow list|refused"
	if strings.Join(got, ";") != want {
		t.Errorf("rows %q\nwant %q", strings.Join(got, ";"), want)
	}
}
