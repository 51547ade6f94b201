package yamlrepo

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/domain/workflow"
)

// loadText writes body to a temp file and loads it.
func loadText(t *testing.T, body string) (*workflow.Workflow, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "wf.yaml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	w, ds, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range ds {
		codes = append(codes, d.String())
	}
	return w, strings.Join(codes, "\n")
}

func TestHeaderKeysOfTheReference(t *testing.T) {
	w, ds := loadText(t, `name: h
description: d
version: "1.0"
author: someone
tags: [review, go]
env: [GITHUB_TOKEN, HOME]
states:
  initial: done
  done:
    type: terminal
`)
	if ds != "" {
		t.Fatalf("diagnostics:\n%s", ds)
	}
	if w.Author != "someone" || !reflect.DeepEqual(w.Tags, []string{"review", "go"}) || !reflect.DeepEqual(w.Env, []string{"GITHUB_TOKEN", "HOME"}) {
		t.Errorf("author %q tags %v env %v", w.Author, w.Tags, w.Env)
	}
	if p := w.ValueAt("env[1]"); p.Line != 6 || p.Column != 21 {
		t.Errorf("env[1] at %v", p)
	}
}

func TestBadEnvNames(t *testing.T) {
	_, ds := loadText(t, `name: h
env: [OK, 1BAD, OK]
states:
  initial: done
  done:
    type: terminal
`)
	if !strings.Contains(ds, "2:11: error: env lists \"1BAD\"") || !strings.Contains(ds, "2:17: error: env lists \"OK\" twice") {
		t.Fatalf("diagnostics:\n%s", ds)
	}
}

func TestTimeoutForms(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		bad   string
	}{
		{"120", 2 * time.Minute, ""},
		{`"500ms"`, 500 * time.Millisecond, ""},
		{"1h30m", 90 * time.Minute, ""},
		{"604800", 7 * 24 * time.Hour, ""},
		{"604801", 0, "out of range"},
		{"-5", 0, "out of range"},
		{"soon", 0, "is not a duration"},
		{"[1]", 0, "must be a duration"},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			w, ds := loadText(t, "name: h\nstates:\n  initial: a\n  a:\n    type: command\n    command: x\n    timeout: "+tt.value+"\n    on_success: done\n  done:\n    type: terminal\n")
			if tt.bad != "" {
				if !strings.Contains(ds, tt.bad) || !strings.Contains(ds, "USER.WORKFLOW.INVALID_TIMEOUT") {
					t.Fatalf("want %q, got:\n%s", tt.bad, ds)
				}
				return
			}
			if ds != "" || w.States["a"].Timeout != tt.want {
				t.Fatalf("timeout %s, diagnostics:\n%s", w.States["a"].Timeout, ds)
			}
		})
	}
}

func TestRetryBlock(t *testing.T) {
	w, ds := loadText(t, `name: r
states:
  initial: a
  a:
    type: command
    command: x
    retry:
      max_attempts: 4
      initial_delay: 500ms
      max_delay: 30
      backoff: exponential
      multiplier: 1.5
      jitter: 0.2
      retryable_exit_codes: [1, 22]
    on_success: done
  done:
    type: terminal
`)
	if ds != "" {
		t.Fatalf("diagnostics:\n%s", ds)
	}
	p := w.States["a"].Retry
	if p.MaxAttempts != 4 || p.InitialDelay != 500*time.Millisecond || p.MaxDelay != 30*time.Second || p.Backoff != "exponential" ||
		p.Multiplier != 1.5 || p.Jitter != 0.2 || !reflect.DeepEqual(p.RetryableExitCodes, []int{1, 22}) {
		t.Errorf("policy %+v", p)
	}
}

func TestBadRetryBlock(t *testing.T) {
	_, ds := loadText(t, `name: r
states:
  initial: a
  a:
    type: command
    command: x
    retry:
      max_attempts: 0.5
      initial_delay: soon
      backoff: fibonacci
      jitter: 2
      retries: 3
      retryable_exit_codes: [x]
    on_success: done
  done:
    type: terminal
`)
	for _, want := range []string{
		"8:21: error: max_attempts must be a whole number",
		"9:22: error: initial_delay \"soon\" is not a duration",
		"10:16: error: retry of state \"a\": backoff \"fibonacci\" is not constant, linear or exponential [USER.WORKFLOW.INVALID_RETRY]",
		"11:15: error: retry of state \"a\": jitter must be between 0.0 and 1.0",
		"12:7: error: unknown key \"retries\" in retry",
		"13:30: error: an exit code must be a whole number",
	} {
		if !strings.Contains(ds, want) {
			t.Errorf("missing %q in:\n%s", want, ds)
		}
	}
}
