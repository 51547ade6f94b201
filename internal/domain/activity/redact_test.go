package activity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/redact"
	"github.com/awf-dev/awf/internal/domain/tool"
)

func TestRedacted(t *testing.T) {
	secret := "Zq7-longValue/with+Symbols=9kLmN0pQ"
	r := Record{ID: "id-" + secret, Tool: "t" + secret, Error: "e " + secret, Code: "C",
		Arguments: map[string]any{"a": secret},
		Intent:    tool.Intent{Variant: tool.Variant(secret), OperationType: secret, DataSensitivity: secret, Reason: secret, Warning: secret}}
	if got := r.Redacted(nil); fmt.Sprint(got) != fmt.Sprint(r) {
		t.Error("a nil redactor changed the record")
	}
	got := r.Redacted(redact.New([]string{"X_TOKEN=" + secret}))
	got.ID = ""
	if s := fmt.Sprintf("%+v", got); strings.Contains(s, secret[:8]) {
		t.Errorf("leaks: %s", s)
	}
	if r.Arguments["a"] != secret {
		t.Error("the input record was modified")
	}
}

// A connection's host, path and rule are masked too, and the record it came from is left alone.
func TestRedactedConnection(t *testing.T) {
	secret := "Zq7-longValue/with+Symbols=9kLmN0pQ"
	r := Record{Kind: KindNetwork, Network: &Connection{Host: secret + ".example", Path: "/x/" + secret, Rule: "allow " + secret, Port: 443}}
	got := r.Redacted(redact.New([]string{"X_TOKEN=" + secret}))
	if s := fmt.Sprintf("%+v", *got.Network); strings.Contains(s, secret[:8]) || got.Network.Port != 443 {
		t.Errorf("leaks or loses: %s", s)
	}
	if r.Network.Host != secret+".example" {
		t.Error("the input record was modified")
	}
}
