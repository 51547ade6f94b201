package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	domact "github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/infrastructure/activitylog"
)

// `awf activity list --kind network` shows the connections alone, each with what it reached,
// the bytes and the deciding rule; --kind call the tool calls alone; another kind is refused.
func TestActivityListKind(t *testing.T) {
	file := filepath.Join(t.TempDir(), "activity.jsonl")
	now := time.Now()
	recs := []domact.Record{
		{ID: "call1", Time: now, Tool: "Bash", Outcome: domact.OutcomeSuccess},
		{ID: "net1", Time: now.Add(time.Millisecond), Tool: "Bash", Kind: domact.KindNetwork, Outcome: domact.OutcomeSuccess,
			Network: &domact.Connection{Host: "127.0.0.1", Port: 8080, Protocol: "http", Method: "GET", Path: "/x\x1b[2J", BytesIn: 120, BytesOut: 80, Decision: "allow", Rule: "allow 127.0.0.1:8080"}},
		{ID: "net2", Time: now.Add(2 * time.Millisecond), Tool: "Bash", Kind: domact.KindNetwork, Outcome: domact.OutcomeRefused,
			Network: &domact.Connection{Host: "evil.test", Port: 443, Protocol: "connect", Decision: "deny", Rule: "not in the allow list"}},
	}
	var data []byte
	for _, r := range recs {
		line, err := activitylog.Encode(r)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, line...)
	}
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	list := func(args ...string) (string, error) {
		cmd := newRootCmd()
		var out bytes.Buffer
		cmd.SetOut(&out)
		cmd.SetErr(&out)
		cmd.SetArgs(append([]string{"activity", "list", "--file", file}, args...))
		err := cmd.Execute()
		return out.String(), err
	}
	out, err := list("--kind", "network")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"network http GET 127.0.0.1:8080/x\\x1b[2J (in 120 B, out 80 B)", "allow: allow 127.0.0.1:8080",
		"network connect evil.test:443", "deny: not in the allow list"} {
		if !strings.Contains(out, want) {
			t.Errorf("--kind network lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "call1") || strings.Contains(out, "\x1b") {
		t.Errorf("--kind network shows a call or a raw escape:\n%s", out)
	}
	out, err = list("--kind", "call")
	if err != nil || !strings.Contains(out, "call1") || strings.Contains(out, "network") {
		t.Errorf("--kind call: %v\n%s", err, out)
	}
	if _, err := list("--kind", "dns"); err == nil || !strings.Contains(err.Error(), "unknown record kind") {
		t.Errorf("--kind dns: %v", err)
	}
}
