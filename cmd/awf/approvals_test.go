package main

import (
	"bufio"
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/awf-dev/awf/internal/application/routing"
	"github.com/awf-dev/awf/internal/domain/activity"
	"github.com/awf-dev/awf/internal/infrastructure/approvals"
)

// syncBuffer is a bytes.Buffer safe for the watcher and the test at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// The terminal of `awf run` is asked about a held call: "y" approves it, anything else denies
// it, by terminal; the tool's text is escaped before it reaches the terminal.
func TestTerminalApprovals(t *testing.T) {
	for _, tc := range []struct{ answer, want string }{
		{"y\n", activity.ApprovalApprove},
		{"YES\n", activity.ApprovalApprove},
		{"n\n", activity.ApprovalDeny},
		{"\n", activity.ApprovalDeny},
		{"", activity.ApprovalDeny}, // stdin closed: denied, not left waiting
	} {
		dir := approvals.Dir{Path: t.TempDir(), Timeout: time.Minute, Poll: 5 * time.Millisecond}
		ctx, cancel := context.WithCancel(context.Background())
		var out syncBuffer
		done := make(chan struct{})
		go func() { watchApprovals(ctx, dir, bufio.NewReader(strings.NewReader(tc.answer)), &out); close(done) }()
		a, err := dir.Await(ctx, routing.ApprovalRequest{Tool: "Bash\x1b[2J", Variant: "destructive", Args: map[string]any{"command": "touch m\r\x1b]52;c;x\a"}})
		cancel()
		<-done
		if err != nil || a.Decision != tc.want || a.By != activity.ApprovedByTerminal {
			t.Errorf("answer %q: approval %+v, %v", tc.answer, a, err)
		}
		if s := out.String(); !strings.Contains(s, "approve destructive call Bash") || strings.ContainsAny(s, "\x1b\r\a") {
			t.Errorf("answer %q: the prompt was %q", tc.answer, s)
		}
	}
}
