package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestEachLineSkipsOverlongLinesAndBlanks(t *testing.T) {
	file := filepath.Join(t.TempDir(), "f")
	long := strings.Repeat("x", maxLine+10)
	if err := os.WriteFile(file, []byte("a\n\n  \n"+long+"\nb\nc"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := eachLine(file, func(b []byte) { got = append(got, string(b)) }); err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Fatalf("lines %q", got)
	}
	if err := eachLine(filepath.Join(t.TempDir(), "missing"), func([]byte) { t.Fatal("called") }); err != nil {
		t.Fatalf("a missing file is an empty one: %v", err)
	}
}

func TestLogLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		ok   bool
		step string
		dur  time.Duration
		tok  int
	}{
		{`{"ts":"2026-11-24T00:09:32.09Z","msg":"step succeeded","step":"explore","duration":0.5}`, true, "explore", 500 * time.Millisecond, 0},
		{`{"ts":"2026-11-24T00:09:32.09Z","msg":"model request","step":"a","prompt_tokens":12}`, true, "a", 0, 12},
		{`{"ts":"2026-11-24T00:09:32.09Z","msg":"tool call","step":"a"}`, false, "", 0, 0},
		{`{"msg":"step failed","step":`, false, "", 0, 0},
	} {
		l, ok := logLine([]byte(c.in))
		if ok != c.ok || l.Step != c.step || l.Duration != c.dur || l.PromptTokens != c.tok {
			t.Errorf("%s: %+v %v", c.in, l, ok)
		}
	}
}
