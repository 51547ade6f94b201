package turns

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestLinesEndsOnEmptyExitQuitAndEOF(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"more please\nand again\n\n", []string{"more please", "and again"}},
		{"one\nEXIT\ntwo\n", []string{"one"}},
		{"  quit  \n", nil},
		{"last line without newline", []string{"last line without newline"}},
		{"", nil},
	} {
		var out bytes.Buffer
		l := &Lines{In: strings.NewReader(c.in), Out: &out}
		var got []string
		for {
			msg, ok := l.NextTurn(context.Background(), "chat", "reply")
			if !ok {
				break
			}
			got = append(got, msg)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: turns %q, want %q", c.in, got, c.want)
		}
		if !strings.Contains(out.String(), "[chat] reply") || !strings.Contains(out.String(), "> ") {
			t.Errorf("the reply and prompt were not shown: %q", out.String())
		}
	}
}

func TestLinesStopsWhenTheContextEnds(t *testing.T) {
	pr, pw := ioPipe()
	defer pw.Close()
	l := &Lines{In: pr}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if msg, ok := l.NextTurn(ctx, "chat", "r"); ok {
		t.Fatalf("a cancelled step got a turn: %q", msg)
	}
}
