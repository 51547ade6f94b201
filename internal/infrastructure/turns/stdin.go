// Package turns reads the user's messages of `mode: conversation` steps from awf's standard
// input, as the reference awf does: the agent's reply is shown, then a "> " prompt.
package turns

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// maxMessage bounds one message read from the input.
const maxMessage = 1 << 20

// Lines is a ports.TurnSource over a line-oriented input. The conversation ends on an empty
// line, "exit" or "quit" (any case), the end of the input, or the step's context ending. The
// input is read by one goroutine, started on the first turn, so a blocked read never outlives
// the step's context in the caller.
type Lines struct {
	In  io.Reader
	Out io.Writer
	// Prompt is printed before each read; "> " when empty.
	Prompt string

	once  sync.Once
	lines chan string
}

// NextTurn implements ports.TurnSource.
func (l *Lines) NextTurn(ctx context.Context, step, reply string) (string, bool) {
	l.once.Do(l.start)
	prompt := l.Prompt
	if prompt == "" {
		prompt = "> "
	}
	if l.Out != nil {
		fmt.Fprintf(l.Out, "\n[%s] %s\n(an empty line, exit or quit ends the conversation)\n%s", step, strings.TrimSpace(reply), prompt)
	}
	select {
	case <-ctx.Done():
		return "", false
	case line, ok := <-l.lines:
		if !ok {
			return "", false
		}
		msg := strings.TrimSpace(line)
		switch strings.ToLower(msg) {
		case "", "exit", "quit":
			return "", false
		}
		return msg, true
	}
}

func (l *Lines) start() {
	l.lines = make(chan string)
	go func() {
		defer close(l.lines)
		if l.In == nil {
			return
		}
		sc := bufio.NewScanner(l.In)
		sc.Buffer(make([]byte, 64<<10), maxMessage)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
	}()
}
