package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/domain/toolset"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
	"github.com/awf-dev/awf/internal/infrastructure/runstore"
)

// fileApprover is the approver of an in-process agent step whose intent.ask is set: the run's
// approvals directory, where `awf serve` and the terminal of `awf run` answer, as they answer
// an mcp-serve subprocess (docs/guide/serve.md#approvals).
func fileApprover(spec toolset.Spec) routing.Approver {
	return approvals.Dir{Path: spec.ApprovalsDir, Timeout: spec.Intent.ApprovalTimeout, Redactor: secrets()}
}

// stdinIsTerminal reports whether someone can answer a prompt on stdin: a terminal, not
// merely a character device (/dev/null is one, as a headless run's stdin often is).
func stdinIsTerminal() bool {
	_, err := unix.IoctlGetTermios(int(os.Stdin.Fd()), ioctlReadTermios)
	return err == nil
}

// terminalApprovals wraps a run's id maker so that, once the run has its id, the run's held
// calls are put to the terminal: "approve destructive call <tool> <args>? [y/N]" on errOut,
// answered on in. The returned stop ends the watch.
func terminalApprovals(ctx context.Context, root string, newID func() string, in io.Reader, errOut io.Writer) (func() string, func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wrapped := func() string {
		id := newID()
		dir := approvals.Dir{Path: filepath.Join(runstore.Store{Root: root}.Dir(id), approvals.DirName)}
		wg.Add(1)
		go func() { defer wg.Done(); watchApprovals(ctx, dir, bufio.NewReader(in), errOut) }()
		return id
	}
	return wrapped, func() { cancel(); wg.Wait() }
}

// watchApprovals prompts for each call that comes to wait in dir, once, until ctx ends. Lines
// are read in the background so that the watch ends with the run even while a prompt waits.
func watchApprovals(ctx context.Context, dir approvals.Dir, in *bufio.Reader, errOut io.Writer) {
	asked := map[string]bool{}
	var lines chan string
	// The terminal is read only once a call waits, so a step that holds nothing takes no line.
	startReading := func() {
		lines = make(chan string)
		go readLines(ctx, in, lines)
	}
	t := time.NewTicker(200 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		list, _ := dir.List()
		for _, p := range list {
			if asked[p.ID] {
				continue
			}
			asked[p.ID] = true
			if lines == nil {
				startReading()
			}
			if !promptApproval(ctx, dir, p, lines, errOut) {
				return
			}
		}
	}
}

// readLines sends the lines of in to lines until in ends (then closes it) or ctx ends.
func readLines(ctx context.Context, in *bufio.Reader, lines chan<- string) {
	for {
		line, err := in.ReadString('\n')
		if err != nil && line == "" {
			close(lines)
			return
		}
		select {
		case lines <- line:
		case <-ctx.Done():
			return
		}
	}
}

// promptApproval asks about one held call and records the answer; false when no answer can
// come any more (ctx ended, stdin closed).
func promptApproval(ctx context.Context, dir approvals.Dir, p approvals.Pending, lines <-chan string, errOut io.Writer) bool {
	fmt.Fprintf(errOut, "approve %s call %s %s? [y/N] ", visible(p.Variant), visible(p.Tool), visible(p.Summary))
	var line string
	var ok bool
	select {
	case <-ctx.Done():
		fmt.Fprintln(errOut)
		return false
	case line, ok = <-lines:
	}
	decision := activity.ApprovalDeny
	if a := strings.ToLower(strings.TrimSpace(line)); ok && (a == "y" || a == "yes") {
		decision = activity.ApprovalApprove
	}
	switch err := dir.Decide(p.ID, decision, activity.ApprovedByTerminal); {
	case err == nil:
		fmt.Fprintf(errOut, "%sd %s\n", decision, visible(p.Tool))
	case errors.Is(err, approvals.ErrDecided), errors.Is(err, approvals.ErrNotFound):
		fmt.Fprintln(errOut, "already decided elsewhere (or timed out): your answer was not used")
	default:
		fmt.Fprintf(errOut, "cannot record the decision: %s\n", visible(err.Error()))
	}
	return ok
}
