package cli

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/awf-dev/awf/internal/domain/fault"
	"github.com/awf-dev/awf/internal/domain/ports"
)

func TestBuildEnvLayers(t *testing.T) {
	base := []string{"PATH=/bin", "HOME=/h", "SECRET=s", "PATH=/usr/bin", "DISABLE_TELEMETRY=0", "junk"}
	got := BuildEnv(base,
		map[string]string{"DISABLE_TELEMETRY": "1", "QUIET": "1", "OVERRIDDEN": "default"},
		map[string]string{"OVERRIDDEN": "user", "PRIVATE_HOME": "user-tries"},
		map[string]string{"PRIVATE_HOME": "/tmp/x"},
		[]string{"SECRET"})
	want := []string{"PATH=/usr/bin", "HOME=/h", "DISABLE_TELEMETRY=1", "OVERRIDDEN=user", "PRIVATE_HOME=/tmp/x", "QUIET=1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("BuildEnv = %q\nwant        %q", got, want)
	}
	if LookupEnv(got, "PRIVATE_HOME") != "/tmp/x" || LookupEnv(got, "NOPE") != "" {
		t.Error("LookupEnv")
	}
}

func TestTOMLString(t *testing.T) {
	tests := map[string]string{
		`/usr/bin/awf`:         `"/usr/bin/awf"`,
		`C:\path "quoted"`:     `"C:\\path \"quoted\""`,
		"line\nbreak\ttab\x01": `"line\nbreak\ttab\u0001"`,
		"ünï ✓":                `"ünï ✓"`,
		"bad\xffbyte":          `"bad\uFFFDbyte"`,
		"del\x7f":              `"del\u007F"`,
	}
	for in, want := range tests {
		if got := TOMLString(in); got != want {
			t.Errorf("TOMLString(%q) = %s, want %s", in, got, want)
		}
	}
	if got := TOMLStrings([]string{"mcp-serve", "--config", `/t/a b"c`}); got != `["mcp-serve","--config","/t/a b\"c"]` {
		t.Errorf("TOMLStrings = %s", got)
	}
	if got := TOMLStrings(nil); got != "[]" {
		t.Errorf("TOMLStrings(nil) = %s", got)
	}
}

func TestStripJSONComments(t *testing.T) {
	in := `{
  // a comment
  "url": "http://x//not-a-comment", /* block
  comment */ "s": "a \"quoted // x\" b",
  "n": 1 // trailing
}`
	var got map[string]any
	if err := json.Unmarshal(StripJSONComments([]byte(in)), &got); err != nil {
		t.Fatalf("%v in %s", err, StripJSONComments([]byte(in)))
	}
	want := map[string]any{"url": "http://x//not-a-comment", "s": `a "quoted // x" b`, "n": 1.0}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
	if s := string(StripJSONComments([]byte(`{"a":1} /* unterminated`))); strings.Contains(s, "unterminated") {
		t.Errorf("unterminated comment kept: %q", s)
	}
}

func TestOutcome(t *testing.T) {
	reported := fault.New(fault.ExecutionAgentError, "the CLI said no")
	ok := func(Result) (ports.AgentResult, error) { return ports.AgentResult{Output: "answer"}, nil }
	cliErr := func(Result) (ports.AgentResult, error) { return ports.AgentResult{Output: "partial"}, reported }
	garbage := func(Result) (ports.AgentResult, error) { return ports.AgentResult{}, errors.New("not JSON") }
	tests := []struct {
		name     string
		res      Result
		parse    func(Result) (ports.AgentResult, error)
		wantCode string
		wantText string
	}{
		{name: "success", res: Result{}, parse: ok},
		{name: "CLI report wins over the exit status", res: Result{ExitCode: 1}, parse: cliErr, wantCode: fault.ExecutionAgentError},
		{name: "exit status with stderr tail", res: Result{ExitCode: 2, Stderr: "noise\nError: bad flag --x\n"}, parse: garbage,
			wantCode: fault.ExecutionAgentCLIFailed, wantText: "exited with status 2: noise\nError: bad flag --x"},
		{name: "exit status, empty stderr quotes stdout", res: Result{ExitCode: 3, Stdout: []byte("usage: …")}, parse: garbage,
			wantCode: fault.ExecutionAgentCLIFailed, wantText: "usage: …"},
		{name: "readable report yet non-zero exit", res: Result{ExitCode: 1}, parse: ok, wantCode: fault.ExecutionAgentCLIFailed, wantText: "(no output)"},
		{name: "garbage with exit 0", res: Result{Stdout: []byte("<html>")}, parse: garbage, wantCode: fault.ExecutionAgentBadOutput, wantText: "stdout began: <html>"},
		{name: "truncated output", res: Result{Stdout: []byte("{"), StdoutTruncated: true}, parse: garbage, wantCode: fault.ExecutionAgentBadOutput, wantText: "output limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Outcome("fake", tc.res, tc.parse)
			if fault.CodeOf(err) != tc.wantCode {
				t.Fatalf("want code %q, got %v", tc.wantCode, err)
			}
			if tc.wantCode == "" && out.Output != "answer" {
				t.Errorf("output = %q", out.Output)
			}
			if err != nil && !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("error %q lacks %q", err, tc.wantText)
			}
			if err != nil && fault.ExitCode(err) != fault.ExitExecution {
				t.Errorf("a CLI failure must fail the step (exit 3): %v", err)
			}
		})
	}
}

func TestTailAndHead(t *testing.T) {
	if got := Tail(strings.Repeat("x", 50)+"\nlast line", 11); got != "…last line" {
		t.Errorf("Tail = %q", got)
	}
	if got := Tail("ééééé", 3); got != "…é" {
		t.Errorf("Tail must cut on a rune boundary: %q", got)
	}
	if got := Head("ééééé", 3); got != "é…" {
		t.Errorf("Head must cut on a rune boundary: %q", got)
	}
}

func TestPrivateFiles(t *testing.T) {
	tmp := t.TempDir()
	dir, cleanup, err := privateDir("fake", &ports.ProxyAttachment{TempDir: tmp}, false)
	if err != nil || dir != filepath.Join(tmp, "fake") {
		t.Fatalf("dir %q, %v", dir, err)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("private dir mode: %v %v", fi, err)
	}
	if err := writeFiles(dir, []File{{Path: filepath.Join(dir, "home", ".x", "settings.json"), Data: []byte("{}")}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "home", ".x", "settings.json")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("private file mode: %v %v", fi, err)
	}
	for _, bad := range []string{filepath.Join(tmp, "outside.json"), filepath.Join(dir, "..", "x"), "/etc/passwd", dir} {
		if err := writeFiles(dir, []File{{Path: bad}}); fault.CodeOf(err) != fault.ExecutionAgentSetup {
			t.Errorf("writing %s must be refused, got %v", bad, err)
		}
	}
	if err := makeDirs(dir, []string{filepath.Join(dir, "codex-home")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "codex-home")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("private subdirectory mode: %v %v", fi, err)
	}
	if err := makeDirs(dir, []string{tmp}); fault.CodeOf(err) != fault.ExecutionAgentSetup {
		t.Errorf("creating a directory outside must be refused, got %v", err)
	}
	cleanup()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Error("cleanup must remove the provider's directory")
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Error("cleanup must leave the step's TempDir to its owner")
	}

	none, cleanup, err := privateDir("fake", nil, false)
	cleanup()
	if err != nil || none != "" {
		t.Errorf("no proxy, no need: want no dir, got %q %v", none, err)
	}
	orphan, cleanup, err := privateDir("fake", &ports.ProxyAttachment{}, false)
	if err != nil || orphan == "" {
		t.Fatalf("an attachment without TempDir must get a private dir: %q %v", orphan, err)
	}
	cleanup()
	own, cleanup, err := privateDir("fake", nil, true)
	if err != nil || own == "" {
		t.Fatalf("own dir: %q %v", own, err)
	}
	cleanup()
	if _, err := os.Stat(own); !os.IsNotExist(err) {
		t.Error("an own temp dir must be removed")
	}
}
