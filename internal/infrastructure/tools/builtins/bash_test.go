package builtins

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBash(t *testing.T) {
	p, root := newTestProvider(t)
	mustWrite(t, filepath.Join(root, "here.txt"), "x")
	tests := []struct {
		name    string
		args    map[string]any
		isErr   bool
		want    []string
		notWant string
	}{
		{"stdout", map[string]any{"command": "echo hello", "description": "say hello"}, false, []string{"hello\n"}, ""},
		{"runs in root", map[string]any{"command": "ls"}, false, []string{"here.txt"}, ""},
		{"stdout and stderr kept", map[string]any{"command": "echo out; echo err >&2"}, false, []string{"out\n", "err\n"}, ""},
		{"no output", map[string]any{"command": "true"}, false, []string{"(no output)"}, ""},
		{"exit code", map[string]any{"command": "echo partial; echo oops >&2; exit 3"}, true, []string{"partial", "oops", "[exit code 3]"}, ""},
		{"stdin is empty", map[string]any{"command": "cat; echo done", "timeout": 5000}, false, []string{"done"}, ""},
		{"bash features", map[string]any{"command": "a=(1 2 3); echo ${#a[@]}"}, false, []string{"3"}, ""},
		{"killed by signal", map[string]any{"command": "kill -9 $$"}, true, []string{"killed by signal"}, ""},
		{"invalid utf8 output", map[string]any{"command": `printf 'a\xffb'`}, false, []string{"a\uFFFDb"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, p, "Bash", tt.args)
			if res.IsError != tt.isErr {
				t.Fatalf("IsError=%v: %s", res.IsError, res.JoinedText())
			}
			for _, w := range tt.want {
				if !strings.Contains(res.JoinedText(), w) {
					t.Fatalf("missing %q in %q", w, res.JoinedText())
				}
			}
		})
	}
}

func TestBashEnvironmentIsScrubbed(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-secret")
	t.Setenv("CODEX_SESSION_TOKEN", "codex-secret")
	t.Setenv("AWF_TEST_VISIBLE", "visible-value")
	p, err := New(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	out := wantOK(t, call(t, p, "Bash", map[string]any{"command": "env"}), "AWF_TEST_VISIBLE=visible-value")
	if strings.Contains(out, "secret") {
		t.Fatalf("credentials reached Bash:\n%s", out)
	}
	custom, _ := New(Options{Root: t.TempDir(), Env: []string{"ONLY=this"}})
	out = wantOK(t, call(t, custom, "Bash", map[string]any{"command": "echo $ONLY; env | grep -c AWF_TEST_VISIBLE || true"}), "this")
	if !strings.Contains(out, "0") {
		t.Fatalf("explicit Env must replace the environment: %s", out)
	}
}

// procsWith counts live processes whose command line contains marker (the process table check).
func procsWith(marker string) int {
	n := 0
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && bytes.Contains(b, []byte(marker)) {
			stat, _ := os.ReadFile(filepath.Join(filepath.Dir(d), "stat"))
			if !bytes.Contains(stat, []byte(") Z ")) { // zombies are dead already
				n++
			}
		}
	}
	return n
}

func waitNoProcs(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for procsWith(marker) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d processes with %q survived", procsWith(marker), marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBashTimeoutKillsTheGroup(t *testing.T) {
	p, _ := newTestProvider(t)
	marker := fmt.Sprintf("%d.%d", 900000+os.Getpid()%1000, time.Now().UnixNano()%100000)
	start := time.Now()
	res := call(t, p, "Bash", map[string]any{
		"command": fmt.Sprintf("echo started; sleep %s & sleep %s; echo never", marker, marker),
		"timeout": 500,
	})
	if d := time.Since(start); d > 4*time.Second {
		t.Fatalf("timeout took %v", d)
	}
	wantErr(t, res, "started", "timed out after 500 ms")
	if strings.Contains(res.JoinedText(), "never") {
		t.Fatal("command went on after the timeout")
	}
	waitNoProcs(t, marker)
}

func TestBashBackgroundChildDoesNotOutliveCall(t *testing.T) {
	p, _ := newTestProvider(t)
	marker := fmt.Sprintf("%d.%d", 800000+os.Getpid()%1000, time.Now().UnixNano()%100000)
	start := time.Now()
	wantOK(t, call(t, p, "Bash", map[string]any{"command": fmt.Sprintf("sleep %s & echo bg", marker)}), "bg")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("a background child held the call for %v", d)
	}
	waitNoProcs(t, marker)
}

func TestBashCancelAndClose(t *testing.T) {
	for _, how := range []string{"context", "close"} {
		t.Run(how, func(t *testing.T) {
			p, _ := newTestProvider(t)
			marker := fmt.Sprintf("%d.%d", 700000+os.Getpid()%1000, time.Now().UnixNano()%100000)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				text  string
				isErr bool
			}
			done := make(chan result, 1)
			go func() {
				res, _ := p.CallTool(ctx, "Bash", json.RawMessage(fmt.Sprintf(`{"command":"sleep %s"}`, marker)))
				done <- result{res.JoinedText(), res.IsError}
			}()
			deadline := time.Now().Add(5 * time.Second)
			for procsWith(marker) == 0 && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if how == "context" {
				cancel()
			} else {
				p.Close()
			}
			select {
			case r := <-done:
				if !r.isErr || !strings.Contains(r.text, "cancelled") {
					t.Fatalf("want a cancellation error, got %v %q", r.isErr, r.text)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("cancellation did not stop the command")
			}
			waitNoProcs(t, marker)
		})
	}
}

// TestBashHugeOutputIsCapped prints 50 MB: the result stays under the cap with a note, and the
// server does not buffer the stream (allocation stays far below the output size).
func TestBashHugeOutputIsCapped(t *testing.T) {
	p, _ := newTestProvider(t)
	before := totalAlloc()
	res := call(t, p, "Bash", map[string]any{"command": "head -c 52428800 /dev/zero | tr '\\0' 'x'; echo; echo THE-END"})
	grown := totalAlloc() - before
	txt := wantOK(t, res, "[output truncated: 52428809 bytes total, showing the first", "THE-END")
	if len(txt) > DefaultMaxOutputBytes {
		t.Fatalf("output %d bytes exceeds the cap %d", len(txt), DefaultMaxOutputBytes)
	}
	if grown > 16<<20 {
		t.Fatalf("Bash allocated %d bytes for 50 MB of output", grown)
	}
}

func TestCapture(t *testing.T) {
	// Compare against the obvious definition for many write patterns.
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	for _, limit := range []int{10, 11, 100, 4999, 5000, 6000} {
		for _, step := range []int{1, 3, 7, 64, 1000, 5000} {
			c := newCapture(limit)
			for i := 0; i < len(data); i += step {
				c.Write(data[i:min(i+step, len(data))])
			}
			head, tail := limit/2, limit-limit/2
			var want string
			if len(data) <= limit {
				want = string(data)
			} else {
				want = string(data[:head]) + fmt.Sprintf("\n[output truncated: %d bytes total, showing the first %d and the last %d bytes]\n", len(data), head, tail) + string(data[len(data)-tail:])
			}
			if got := c.String(); got != want {
				t.Fatalf("limit %d step %d:\n got %q\nwant %q", limit, step, got, want)
			}
		}
	}
}

func TestScrubEnv(t *testing.T) {
	in := []string{
		"PATH=/bin", "HOME=/root", "ANTHROPIC_API_KEY=a", "ANTHROPIC_AUTH_TOKEN=b", "OPENAI_API_KEY=c",
		"GEMINI_API_KEY=d", "GOOGLE_API_KEY=e", "CLAUDE_CODE_OAUTH_TOKEN=f", "CODEX_TOKEN=g", "CODEX_HOME=h",
		"OPENAI_BASE_URL=http://x", "ANTHROPIC_MODEL=m", "DATABASE_PASSWORD=p", "GEMINI_SESSION_TOKEN=i",
		"anthropic_api_key=lower", "NOEQUALS", "GITHUB_TOKEN=t", "GH_TOKEN=t", "AWS_SECRET_ACCESS_KEY=s",
		"AWS_SESSION_TOKEN=s", "NPM_TOKEN=n", "HF_TOKEN=h", "GITLAB_PAT=p", "MY_CREDENTIALS=c", "APP_SECRET=s",
		"TOKENIZER=keep", "KEYBOARD=keep",
	}
	want := []string{"PATH=/bin", "HOME=/root", "OPENAI_BASE_URL=http://x", "ANTHROPIC_MODEL=m", "NOEQUALS", "TOKENIZER=keep", "KEYBOARD=keep"}
	got := ScrubEnv(in)
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %v\nwant %v", got, want)
	}
	// env_passthrough hands a named one on deliberately.
	got = ScrubEnvKeeping(in, []string{"GITHUB_TOKEN", "OPENAI_API_KEY"})
	if !slices.Contains(got, "GITHUB_TOKEN=t") || !slices.Contains(got, "OPENAI_API_KEY=c") || slices.Contains(got, "GH_TOKEN=t") {
		t.Fatalf("keeping GITHUB_TOKEN and OPENAI_API_KEY: %v", got)
	}
}
