package main

import (
	"fmt"
	"strings"

	"github.com/awf-dev/awf/internal/application/run"
)

// hookRan shows one hook action: a log hook's message, a command hook's command and output,
// and why an action failed.
func (o *textObserver) hookRan(e run.HookRan) {
	where := e.Hook
	if e.Step != "" {
		where = e.Hook + " " + e.Step
	}
	switch {
	case e.Error != "":
		fmt.Fprintf(o.out, "⚠ hook %s: %s failed: %s\n", where, e.Action, firstLine(e.Error))
	case e.Action == "log":
		head, rest, _ := strings.Cut(e.Text, "\n")
		fmt.Fprintf(o.out, "• hook %s: %s\n", where, visible(head))
		printIndented(o.out, rest)
	default:
		fmt.Fprintf(o.out, "• hook %s: ran %s\n", where, firstLine(e.Text))
	}
	printIndented(o.out, e.Output)
}
