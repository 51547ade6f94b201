//go:build linux

package mcpserve

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// blankChildEnv makes the test binary, run again by TestBlankProcEnviron, blank its own
// environment block and print what /proc/self/environ and os.Getenv then say.
const blankChildEnv = "AWF_TEST_BLANK_ENVIRON"

// TestBlankProcEnviron: after BlankProcEnviron, /proc/<pid>/environ holds no key, only the
// variables kept, while the process's own environment (os.Getenv) is unchanged.
func TestBlankProcEnviron(t *testing.T) {
	if os.Getenv(blankChildEnv) == "1" {
		if err := BlankProcEnviron("AWF_KEEP_ME", "NOT_SET_AT_ALL"); err != nil {
			os.Stdout.WriteString("error: " + err.Error())
			os.Exit(0)
		}
		b, _ := os.ReadFile("/proc/self/environ")
		os.Stdout.WriteString("proc=" + strings.ReplaceAll(string(bytes.TrimRight(b, "\x00")), "\x00", "|") + "\n")
		os.Stdout.WriteString("getenv=" + os.Getenv("ANTHROPIC_API_KEY") + "\n")
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBlankProcEnviron$", "-test.count=1")
	cmd.Env = append(os.Environ(), blankChildEnv+"=1", "ANTHROPIC_API_KEY=sk-ant-planted-blank", "AWF_KEEP_ME=kept", "HOME="+dir, "TMPDIR="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	got := string(out)
	if !strings.Contains(got, "proc=AWF_KEEP_ME=kept\n") {
		t.Errorf("/proc/self/environ after blanking, want only AWF_KEEP_ME=kept: %s", got)
	}
	if !strings.Contains(got, "getenv=sk-ant-planted-blank\n") {
		t.Errorf("the process lost its own copy of the environment: %s", got)
	}
}

// TestEnvBounds reads env_start and env_end from stat lines, and refuses lines it cannot trust.
func TestEnvBounds(t *testing.T) {
	fields := func(start, end string) []byte {
		f := make([]string, 52)
		for i := range f {
			f[i] = "0"
		}
		f[0], f[1], f[2] = "42", "(a b) c)", "S"
		f[49], f[50] = start, end
		return []byte(strings.Join(f, " ") + "\n")
	}
	for _, tc := range []struct {
		name       string
		stat       []byte
		start, end uint64
		ok         bool
	}{
		{"name with spaces and parentheses", fields("1000", "1400"), 1000, 1400, true},
		{"empty block", fields("1000", "1000"), 1000, 1000, true},
		{"end before start", fields("1400", "1000"), 0, 0, false},
		{"huge block", fields("0", "4294967296"), 0, 0, false},
		{"not a number", fields("x", "1400"), 0, 0, false},
		{"too few fields (old kernel)", []byte("42 (a) S 1 2 3\n"), 0, 0, false},
		{"no name", []byte("42 a S\n"), 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start, end, err := envBounds(tc.stat)
			if (err == nil) != tc.ok || start != tc.start || end != tc.end {
				t.Fatalf("envBounds = %d, %d, %v; want %d, %d, ok %v", start, end, err, tc.start, tc.end, tc.ok)
			}
		})
	}
}
