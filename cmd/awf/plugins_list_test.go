package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/tool"
)

// The listing shows a plugin's findings count and marks its held tools in the CALL WITH
// column, awf's own: a tool whose name ends in "(held)" is not shown as held, and server text
// stays escaped. A plugin without findings, or not scanned, has no scan line.
func TestPrintPluginsShowsScan(t *testing.T) {
	two, none := 2, 0
	rows := []pluginRow{
		{Name: "bad", State: "running", Command: "bad-server", Findings: &two, Operations: []operationRow{
			{Name: "lookup" + hostile, Tool: "bad_lookup" + hostile, CallWith: tool.VariantRead, Held: true},
			{Name: "forged (held)", Tool: "bad_forged (held)", CallWith: tool.VariantRead},
		}},
		{Name: "clean", State: "running", Command: "clean-server", Findings: &none, Operations: []operationRow{{Name: "add", Tool: "clean_add", CallWith: tool.VariantWrite}}},
		{Name: "idle", State: "not started", Command: "idle-server", Operations: []operationRow{}},
	}
	var b bytes.Buffer
	printPlugins(&b, rows)
	out := b.String()
	if rawControl(out) {
		t.Fatalf("raw control characters in:\n%q", out)
	}
	if strings.Count(out, "scan:") != 1 || !strings.Contains(out, "  scan: 2 finding(s), 1 tool(s) held out of every step until accepted (`awf plugins lock --accept bad/<tool>`)") {
		t.Errorf("scan lines:\n%s", out)
	}
	for _, line := range strings.Split(out, "\n") {
		held := strings.Contains(line, "read (held)")
		if strings.Contains(line, "bad_lookup") != held {
			t.Errorf("held mark wrong on %q", line)
		}
	}
}
