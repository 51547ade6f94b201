package redact

import (
	"fmt"
	"strings"
	"testing"
)

// benchEnv is an environment with 50 secret variables of 40 bytes each.
func benchEnv() []string {
	env := []string{"PATH=/usr/bin", "HOME=/root"}
	for i := 0; i < 50; i++ {
		env = append(env, fmt.Sprintf("SVC%d_TOKEN=%s", i, strings.Repeat(fmt.Sprintf("v%02dQz", i), 8)))
	}
	return env
}

// BenchmarkLogLine: a typical 300-byte log line with nothing to mask.
func BenchmarkLogLine(b *testing.B) {
	r := New(benchEnv())
	line := `{"level":"info","ts":"2026-11-23T20:00:00Z","msg":"tool call","tool":"Read","source":"builtin","variant":"read","decision":"allow","outcome":"success","duration_ms":0.42,"step":"review","run_id":"20261123-200000-abcdef"}`
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		_ = r.String(line)
	}
}

// BenchmarkToolOutput: 256 KiB of tool output (the Bash cap) with one secret in it.
func BenchmarkToolOutput(b *testing.B) {
	env := benchEnv()
	r := New(env)
	_, secret, _ := strings.Cut(env[10], "=")
	text := strings.Repeat("some ordinary output line with words and numbers 12345\n", 256<<10/55) + secret
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = r.String(text)
	}
}
