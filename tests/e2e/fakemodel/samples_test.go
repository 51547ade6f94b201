package fakemodel_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutputSamples keeps the saved stdout samples (testdata/<cli>-output.json, written by the
// CLI tests with FAKEMODEL_WRITE_SAMPLES=1) and the final-answer readers in step, with no CLI
// installed: each reader must find the fake's final answer with both markers in its sample.
func TestOutputSamples(t *testing.T) {
	readers := map[string]func([]byte) (string, error){
		"claude": claudeFinal, "codex": codexFinal, "gemini": geminiFinal, "opencode": opencodeFinal,
	}
	for cli, read := range readers {
		t.Run(cli, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", cli+"-output.json"))
			if err != nil {
				t.Fatalf("sample missing: %v (regenerate with FAKEMODEL_WRITE_SAMPLES=1 go test -run Test%s)", err, strings.ToUpper(cli[:1])+cli[1:])
			}
			final, err := read(data)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{finalText, "MARKER-" + cli + "-", "BASH-42-MARKER-" + cli + "-"} {
				if !strings.Contains(final, want) {
					t.Errorf("final answer read from the %s sample lacks %q:\n%s", cli, want, final)
				}
			}
		})
	}
}

// TestReadersRejectFailures: each reader reports a failed run instead of returning text.
func TestReadersRejectFailures(t *testing.T) {
	cases := []struct {
		name string
		read func([]byte) (string, error)
		out  string
	}{
		{"claude error result", claudeFinal, `{"type":"result","subtype":"error_max_turns","is_error":true,"result":""}`},
		{"claude not JSON", claudeFinal, `oops`},
		{"codex turn failed", codexFinal, `{"type":"thread.started"}` + "\n" + `{"type":"turn.failed","error":{"message":"boom"}}`},
		{"codex no message", codexFinal, `{"type":"turn.completed"}`},
		{"gemini error", geminiFinal, `{"session_id":"x","error":{"type":"Error","message":"Invalid auth method selected.","code":41}}`},
		{"opencode error", opencodeFinal, `{"type":"error","error":{"name":"APIError"}}`},
		{"opencode no text", opencodeFinal, `{"type":"step_start","part":{}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got, err := c.read([]byte(c.out)); err == nil {
				t.Errorf("reader accepted a failed run and returned %q", got)
			}
		})
	}
}
